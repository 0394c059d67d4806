using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0007: a call that parks the thread (Thread.Sleep, WaitHandle.WaitOne, SemaphoreSlim.Wait, …) inside an
/// async method, async lambda or async local function. The rule matches a fixed list of members, never
/// "any method with an Async twin" (the heuristic that flags EF Core's in-memory <c>DbSet.Add</c>), and a wait
/// with a zero timeout is a non-blocking probe, not a wait. Not reported: the synchronous arm of a <c>bool async</c> or enum-mode (<c>IOBehavior</c>)
/// split (it runs only for the synchronous API), and test projects, where waits sequence the threads a test drives.
/// One call deep: a call from async code to a synchronous method of this compilation whose own body calls
/// <c>Thread.Sleep</c> inside a loop (<c>while (!done) Thread.Sleep(100);</c>, a poll) is reported at the call, naming
/// the helper: the async caller's thread sleeps for the whole poll. A single sleep outside a loop in a helper is not
/// (a bounded pause, not a poll), nor is the helper called from synchronous code or handed to a thread.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0007BlockingWaitInAsyncAnalyzer : DiagnosticAnalyzer
{
    /// <summary>Diagnostic property naming the mechanical replacement the fix can make, when there is one.</summary>
    public const string ReplacementProperty = "AsyncCostReplacement";
    public const string DelayReplacement = "Task.Delay";
    public const string WaitAsyncReplacement = "WaitAsync";

    private sealed class BlockingMember
    {
        public BlockingMember(string suggestion, string? replacement = null)
        {
            Suggestion = suggestion;
            Replacement = replacement;
        }

        public string Suggestion { get; }

        public string? Replacement { get; }
    }

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => ImmutableArray.Create(Descriptors.BlockingWaitInAsync);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            // A test parks threads on purpose (ManualResetEvent choreography, a sleep that lets a timer fire); the
            // cost this rule counts, a thread-pool worker out of service under load, is not a test's concern.
            if (ProjectKind.IsTestProject(start.Compilation, start.Options))
            {
                return;
            }
            var table = BuildTable(start.Compilation);
            if (table.Count == 0)
            {
                return;
            }
            // Every invocation passes through here: a name check first keeps the symbol lookups for the few candidates.
            var names = new HashSet<string>(table.Values.SelectMany(byName => byName.Keys), StringComparer.Ordinal);
            var timeSpan = start.Compilation.GetTypeByMetadataName("System.TimeSpan");
            var polls = start.Compilation.GetTypeByMetadataName("System.Threading.Thread") is { } thread
                ? new PollingHelpers(start.Compilation, thread)
                : null;
            start.RegisterOperationAction(c => AnalyzeInvocation(c, table, names, timeSpan, polls), OperationKind.Invocation);
        });
    }

    // Keyed by declaring type, then member name; resolved once per compilation.
    private static Dictionary<INamedTypeSymbol, Dictionary<string, BlockingMember>> BuildTable(Compilation compilation)
    {
        var table = new Dictionary<INamedTypeSymbol, Dictionary<string, BlockingMember>>(SymbolEqualityComparer.Default);
        void Add(string typeName, BlockingMember member, params string[] methods)
        {
            if (compilation.GetTypeByMetadataName(typeName) is not { } type)
            {
                return;
            }
            if (!table.TryGetValue(type, out var byName))
            {
                table[type] = byName = new Dictionary<string, BlockingMember>(StringComparer.Ordinal);
            }
            foreach (var method in methods)
            {
                byName[method] = member;
            }
        }

        Add("System.Threading.Thread", new("await Task.Delay", DelayReplacement), "Sleep");
        Add("System.Threading.Thread", new("await a Task that does the thread's work"), "Join");
        Add("System.Threading.WaitHandle", new("await a TaskCompletionSource or SemaphoreSlim.WaitAsync"), "WaitOne", "WaitAll", "WaitAny", "SignalAndWait");
        Add("System.Threading.SemaphoreSlim", new("await SemaphoreSlim.WaitAsync", WaitAsyncReplacement), "Wait");
        Add("System.Threading.ManualResetEventSlim", new("await a TaskCompletionSource"), "Wait");
        Add("System.Threading.Monitor", new("await SemaphoreSlim.WaitAsync or a TaskCompletionSource"), "Wait");
        Add("System.Threading.CountdownEvent", new("await a TaskCompletionSource completed by the last signal"), "Wait");
        Add("System.Threading.Barrier", new("await a TaskCompletionSource per phase"), "SignalAndWait");
        Add("System.Collections.Concurrent.BlockingCollection`1", new("a Channel<T> and await its reader's ReadAsync"), "Take", "TryTake", "TryTakeFromAny", "TakeFromAny", "GetConsumingEnumerable");
        return table;
    }

    private static void AnalyzeInvocation(
        OperationAnalysisContext context,
        Dictionary<INamedTypeSymbol, Dictionary<string, BlockingMember>> table,
        HashSet<string> names,
        INamedTypeSymbol? timeSpan,
        PollingHelpers? polls)
    {
        var invocation = (IInvocationOperation)context.Operation;
        var method = invocation.TargetMethod;
        if (!names.Contains(method.Name))
        {
            AnalyzeHelperCall(context, invocation, polls);
            return;
        }
        while (method.OverriddenMethod is { } overridden)
        {
            method = overridden;
        }
        if (!table.TryGetValue(method.ContainingType.OriginalDefinition, out var byName)
            || !byName.TryGetValue(method.Name, out var member))
        {
            AnalyzeHelperCall(context, invocation, polls);
            return;
        }
        if (OperationScopes.FunctionSymbol(invocation, context.ContainingSymbol) is not { IsAsync: true } function
            || !Waits(invocation, timeSpan)
            || AsyncFlag.IsSynchronousArm(invocation, function))
        {
            return;
        }

        var properties = AwaitPlacement.Properties(invocation, context.ContainingSymbol);
        if (member.Replacement is { } replacement)
        {
            properties = properties.Add(ReplacementProperty, replacement);
        }
        var name = method.ContainingType.Name + "." + method.Name;
        context.ReportDiagnostic(DiagnosticFactory.Create(
            Descriptors.BlockingWaitInAsync, invocation.Syntax.GetLocation(), invocation, context.ContainingSymbol, properties, name, member.Suggestion));
    }

    // A call from async code to a synchronous method of this compilation that sleeps in a loop: reported at the call,
    // naming the helper, whose cost (the poll) is where the finding's cost is spent.
    private static void AnalyzeHelperCall(OperationAnalysisContext context, IInvocationOperation invocation, PollingHelpers? polls)
    {
        var helper = invocation.TargetMethod;
        // Most calls are to other assemblies' methods: one reference comparison turns them away.
        if (polls is null
            || !polls.IsOwn(helper)
            || helper.IsAsync
            || helper.MethodKind is not (MethodKind.Ordinary or MethodKind.LocalFunction)
            || OperationScopes.FunctionSymbol(invocation, context.ContainingSymbol) is not { IsAsync: true } function
            || !polls.SleepsInLoop(helper)
            || AsyncFlag.IsSynchronousArm(invocation, function))
        {
            return;
        }
        var properties = DiagnosticFactory.WithCostIn(ImmutableDictionary<string, string?>.Empty, [helper]);
        var name = helper.MethodKind == MethodKind.LocalFunction ? helper.Name : helper.ContainingType.Name + "." + helper.Name;
        context.ReportDiagnostic(DiagnosticFactory.Create(
            Descriptors.BlockingWaitInAsync, invocation.Syntax.GetLocation(), invocation, context.ContainingSymbol, properties, name, Descriptors.PollingHelperAdvice));
    }

    /// <summary>
    /// Which synchronous methods of the compilation call <c>Thread.Sleep</c> inside a loop of their own body (not in a
    /// lambda there); one walk per method. <c>Sleep(0)</c> counts here: one probe is no wait, a loop of them is a poll.
    /// </summary>
    private sealed class PollingHelpers
    {
        private readonly IAssemblySymbol _assembly;
        private readonly MethodBodies _bodies;
        private readonly INamedTypeSymbol _thread;
        private readonly ConcurrentDictionary<IMethodSymbol, bool> _sleepsInLoop = new(SymbolEqualityComparer.Default);

        public PollingHelpers(Compilation compilation, INamedTypeSymbol thread)
        {
            _assembly = compilation.Assembly;
            _bodies = new MethodBodies(compilation);
            _thread = thread;
        }

        /// <summary>Declared in this compilation (its body may be read).</summary>
        public bool IsOwn(IMethodSymbol method) => SymbolEqualityComparer.Default.Equals(method.ContainingAssembly, _assembly);

        public bool SleepsInLoop(IMethodSymbol method) => _sleepsInLoop.GetOrAdd(method.OriginalDefinition, Find);

        private bool Find(IMethodSymbol method)
        {
            if (_bodies.Of(method) is not { } body)
            {
                return false;
            }
            foreach (var operation in OperationTree.SameMethod(body))
            {
                if (operation is IInvocationOperation { TargetMethod.Name: "Sleep" } sleep
                    && SymbolEqualityComparer.Default.Equals(sleep.TargetMethod.ContainingType, _thread)
                    && OperationScopes.EnclosingLoop(sleep, out _) is not null)
                {
                    return true;
                }
            }
            return false;
        }
    }

    // A zero timeout (Wait(0), WaitOne(TimeSpan.Zero), Sleep(0)) returns at once; so does TryTake without a timeout.
    private static bool Waits(IInvocationOperation invocation, INamedTypeSymbol? timeSpan) => WaitTimeouts.Of(invocation, timeSpan) switch
    {
        WaitTimeouts.Kind.Zero => false,
        WaitTimeouts.Kind.NonZero => true,
        _ => !invocation.TargetMethod.Name.StartsWith("TryTake", StringComparison.Ordinal),
    };
}
