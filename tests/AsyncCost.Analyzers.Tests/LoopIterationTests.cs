using AsyncCost.Analyzers.Internal;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Tests;

/// <summary>
/// What one iteration of a loop owns (LoopIteration.Owns) and what each awaited call proves about the iterations
/// (IndependentCalls.Classify), read off the loops of one method: each loop's awaited call is named by the local or
/// receiver it uses, so a test reads as "this object is the iteration's own", "this call is independent because…".
/// </summary>
public class LoopIterationTests
{
    private const string Source = """
        using System.Collections.Generic;
        using System.IO;
        using System.Net.Http;
        using System.Threading;
        using System.Threading.Tasks;
        public sealed class Page { public Task LoadAsync() => Task.CompletedTask; }
        public sealed class Work
        {
            private readonly HttpClient _http = new();
            private readonly Page _shared = new();
            private readonly Stream _output = Stream.Null;
            private readonly string _baseUrl = "https://example.test/";
            private readonly Cache _cache = new();
            async Task Loops(Page[] pages, string[] paths, int[] ids, CancellationToken ct)
            {
                foreach (var page in pages) { var copy = _shared; await page.LoadAsync(); await copy.LoadAsync(); }
                foreach (var path in paths) { using var created = new StreamWriter(path); await created.WriteAsync(path); }
                foreach (var id in ids) { using var response = await _http.GetAsync(_baseUrl + id, ct); await response.Content.ReadAsStringAsync(ct); }
                foreach (var id in ids) { var entry = await _cache.GetAsync(id); await entry.LoadAsync(); }
                foreach (var id in ids) await File.ReadAllTextAsync(_baseUrl + id, ct);
                foreach (var id in ids) await Copy(_output, id);
                foreach (var id in ids) await _shared.LoadAsync();
                foreach (var id in ids) await Fetch(_http, id);
                for (var i = 0; i < ids.Length; i++) await pages[i].LoadAsync();
                while (true) await Fetch(_http, 0);
            }
            static Task Copy(Stream output, int id) => Task.CompletedTask;
            static Task Fetch(HttpClient http, int id) => http.GetStringAsync("items/" + id);
        }
        public sealed class Cache { private readonly Page _page = new(); public Task<Page> GetAsync(int id) => Task.FromResult(_page); }
        """;

    private static (List<ILoopOperation> Loops, WellKnownAsyncTypes Types) Compile()
    {
        var compilation = TestCompilation.Create([Source], OutputKind.DynamicallyLinkedLibrary);
        TestCompilation.AssertCompiles(compilation);
        var tree = compilation.SyntaxTrees.Single();
        var model = compilation.GetSemanticModel(tree);
        var method = tree.GetRoot().DescendantNodes().OfType<MethodDeclarationSyntax>().Single(m => m.Identifier.ValueText == "Loops");
        var loops = model.GetOperation(method)!.Descendants().OfType<ILoopOperation>().Where(l => l.Parent is IBlockOperation { Parent: not ILoopOperation }).ToList();
        return (loops, WellKnownAsyncTypes.Create(compilation));
    }

    // The receiver of the awaited call at position `index` in the loop's body, in source order.
    private static IOperation Receiver(ILoopOperation loop, int index) =>
        OperationTree.ReceiverOf(AwaitedCalls(loop)[index])!;

    private static List<IInvocationOperation> AwaitedCalls(ILoopOperation loop) =>
        OperationTree.SameMethod(loop.Body).OfType<IAwaitOperation>().OrderBy(a => a.Syntax.SpanStart)
            .Select(a => ConfigureAwaitCalls.SkipConversions(a.Operation)).OfType<IInvocationOperation>().ToList();

    [Theory]
    [InlineData(0, 0, true)]   // the element
    [InlineData(0, 1, false)]  // a local copy of a shared object
    [InlineData(1, 0, true)]   // an object the iteration creates
    [InlineData(2, 1, true)]   // the content of the response to the iteration's own request
    [InlineData(3, 1, false)]  // what a cache hands out: maybe one object for every caller
    [InlineData(8, 0, true)]   // the element picked by the iteration's index
    public void An_iteration_owns_its_element_what_it_creates_and_the_response_to_its_request(int loopIndex, int callIndex, bool owned)
    {
        var (loops, types) = Compile();
        var iteration = new LoopIteration(loops[loopIndex], types);
        Assert.Equal(owned, iteration.Owns(Receiver(loops[loopIndex], callIndex)));
    }

    [Fact]
    public void Counted_and_collection_loops_are_bounded_and_a_while_true_work_loop_is_not()
    {
        var (loops, types) = Compile();
        Assert.True(new LoopIteration(loops[0], types).HasBoundedIterations());
        Assert.True(new LoopIteration(loops[8], types).HasBoundedIterations());
        Assert.False(new LoopIteration(loops[9], types).HasBoundedIterations());
    }

    [Theory]
    [InlineData(0, nameof(CallEvidence.OwnObject))]        // page.LoadAsync() on the element (the copy's call is classified apart)
    [InlineData(2, nameof(CallEvidence.SafeSharedClient))] // _http.GetAsync with a base-address field of this and the id
    [InlineData(4, nameof(CallEvidence.StaticCall))]       // File.ReadAllTextAsync with the iteration's path
    [InlineData(5, nameof(CallEvidence.Ordered))]          // one shared stream handed to every iteration's call
    [InlineData(6, nameof(CallEvidence.Ordered))]          // a shared object not known to be safe
    [InlineData(7, nameof(CallEvidence.StaticCall))]       // the shared HttpClient handed to a static helper
    public void The_first_awaited_call_of_each_loop_proves_independence_or_an_order(int loopIndex, string expected)
    {
        var (loops, types) = Compile();
        var loop = loops[loopIndex];
        var iteration = new LoopIteration(loop, types);
        var compilation = loop.SemanticModel!.Compilation;
        var calls = new IndependentCalls(iteration, types, new CalleeWork(new MethodBodies(compilation), types), new AnalyzerOptions([]));
        Assert.Equal(expected, calls.Classify(AwaitedCalls(loop)[0]).ToString());
    }
}
