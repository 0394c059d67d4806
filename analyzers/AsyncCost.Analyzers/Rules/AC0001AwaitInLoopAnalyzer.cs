using System.Collections.Immutable;
using System.Linq;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0001: a loop that awaits, one after another, calls for which it has positive evidence that the iterations are
/// independent, so that they could run concurrently (Task.WhenAll, Parallel.ForEachAsync) and the loop wait once.
/// Evidence, per awaited call that uses the iteration's data (<see cref="IndependentCalls"/>): a static call (framework
/// I/O such as Dns or File, or a method of this compilation that keeps no shared state), a call on the iteration's own
/// object (its element, an object the iteration creates, the response to its request), or a call on a shared object of
/// a type known to be safe for concurrent use (HttpClient, or a type the team lists in .editorconfig), handed only
/// values it can read (a string or JsonSerializerOptions field of this is one). Every other await of the body must not
/// contradict it: one that shares an object the analyzer cannot show safe, or is ordered by contract (handlers,
/// teardown), silences the loop. So do the signs of an order in the awaited values (<see cref="AwaitedValueOrder"/>),
/// Task.Delay pacing, await foreach, loops in DisposeAsync or CloseAsync, and test projects. One finding per loop, on
/// its first await with evidence.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0001AwaitInLoopAnalyzer : DiagnosticAnalyzer
{
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptors.AwaitInLoop);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            if (ProjectKind.IsTestProject(start.Compilation, start.Options))
            {
                return; // silent in tests: awaiting one step after another is usually what a test means to do
            }
            var types = WellKnownAsyncTypes.Create(start.Compilation);
            if (!types.HasTasks)
            {
                return;
            }
            var callees = new CalleeWork(new MethodBodies(start.Compilation), types);
            var measured = MeasuredCosts.Load(start.Compilation, start.Options, start.CancellationToken);
            start.RegisterOperationAction(
                c =>
                {
                    // Most loops have no await: skip them before building any per-loop facts, first the loops of
                    // functions that are not async (no await can be there; top-level statements are implicitly declared).
                    var loop = (ILoopOperation)c.Operation;
                    if (loop.Body is not null
                        && OperationScopes.FunctionSymbol(loop, c.ContainingSymbol) is not { IsAsync: false, IsImplicitlyDeclared: false }
                        && !IsTeardownMethod(c.ContainingSymbol)
                        && OperationTree.ContainsAwait(loop.Body))
                    {
                        Analyze(c, loop, types, callees, measured);
                    }
                },
                OperationKind.Loop);
        });
    }

    // A method that releases the object's resources: DisposeAsync (an IAsyncDisposable implementation included, and
    // the DisposeAsyncCore of the dispose pattern) or CloseAsync. It runs once per object lifetime, and each await in
    // its loops (wait for a child's work, reset it, release it) is ordered release of what the object owns: running
    // them together would change which failure stops the rest, for a cost paid once.
    private static bool IsTeardownMethod(ISymbol? member) =>
        member is IMethodSymbol method
        && (IndependentCalls.IsTeardown(method.Name)
            || method.Name == "DisposeAsyncCore"
            || method.ExplicitInterfaceImplementations.Any(i => i.Name == "DisposeAsync"));

    private static void Analyze(OperationAnalysisContext context, ILoopOperation loop, WellKnownAsyncTypes types, CalleeWork callees, MeasuredCosts? measured)
    {
        if (loop is IForEachLoopOperation { IsAsynchronous: true })
        {
            return; // an async stream is consumed in order, one element at a time
        }
        var iteration = new LoopIteration(loop, types);
        var awaits = iteration.BodyAwaits().ToList();
        if (awaits.Count == 0 || !iteration.HasBoundedIterations() || awaits.Any(a => IsTaskDelay(iteration.Awaited(a), types)))
        {
            return;
        }
        // One finding per loop, on the first await with evidence of independent work: the loop is what a fix rewrites.
        // Any await that shares an object the analyzer cannot show safe silences the loop: concurrent iterations
        // would share it too. Classified first, as it is the cheapest test.
        var calls = new IndependentCalls(iteration, types, callees, context.Options);
        var inOrder = awaits.OrderBy(a => a.Syntax.SpanStart).ToList();
        IAwaitOperation? first = null;
        var firstEvidence = CallEvidence.None;
        foreach (var awaitOperation in inOrder)
        {
            var evidence = calls.Classify(iteration.Awaited(awaitOperation));
            if (evidence == CallEvidence.Ordered)
            {
                return;
            }
            if (evidence != CallEvidence.None && first is null)
            {
                first = awaitOperation;
                firstEvidence = evidence;
            }
        }
        if (first is null || AwaitedValueOrder.OrdersIterations(iteration, awaits))
        {
            return;
        }
        // The loop's cost is the time its awaited calls take, one after another: the join credits their rows.
        var costIn = DiagnosticFactory.WithCostIn(
            ImmutableDictionary<string, string?>.Empty, inOrder.Select(iteration.Awaited).OfType<IInvocationOperation>().Select(call => call.TargetMethod));
        // What the loop measurably cost, where the project lists a measurement, decides its severity (MeasuredCosts).
        context.ReportDiagnostic(DiagnosticFactory.Create(
            Descriptors.AwaitInLoop, Descriptors.AwaitInLoop.DefaultSeverity, measured, first.Syntax.GetLocation(), first, context.ContainingSymbol, costIn,
            ((IInvocationOperation)iteration.Awaited(first)).TargetMethod.Name, Describe(firstEvidence)));
    }

    private static string Describe(CallEvidence evidence) => evidence switch
    {
        CallEvidence.StaticCall => "a static call with this iteration's arguments",
        CallEvidence.OwnObject => "a call on this iteration's own object",
        _ => "a call on a shared client that is safe for concurrent use",
    };

    private static bool IsTaskDelay(IOperation awaited, WellKnownAsyncTypes types) =>
        awaited is IInvocationOperation { TargetMethod: { Name: "Delay" } method } && SymbolEqualityComparer.Default.Equals(method.ContainingType, types.Task);
}
