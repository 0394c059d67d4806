using System;
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
            start.RegisterOperationAction(c => AnalyzeInvocation(c, table, names, timeSpan), OperationKind.Invocation);
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
        INamedTypeSymbol? timeSpan)
    {
        var invocation = (IInvocationOperation)context.Operation;
        var method = invocation.TargetMethod;
        if (!names.Contains(method.Name))
        {
            return;
        }
        while (method.OverriddenMethod is { } overridden)
        {
            method = overridden;
        }
        if (!table.TryGetValue(method.ContainingType.OriginalDefinition, out var byName)
            || !byName.TryGetValue(method.Name, out var member)
            || OperationScopes.FunctionSymbol(invocation, context.ContainingSymbol) is not { IsAsync: true } function
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

    // A zero timeout (Wait(0), WaitOne(TimeSpan.Zero), Sleep(0)) returns at once; so does TryTake without a timeout.
    private static bool Waits(IInvocationOperation invocation, INamedTypeSymbol? timeSpan) => WaitTimeouts.Of(invocation, timeSpan) switch
    {
        WaitTimeouts.Kind.Zero => false,
        WaitTimeouts.Kind.NonZero => true,
        _ => !invocation.TargetMethod.Name.StartsWith("TryTake", StringComparison.Ordinal),
    };
}
