using System.Collections.Immutable;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace AsyncCost.Benchmarks.Analyzers;

/// <summary>
/// A generated, async-heavy C# code base of a chosen size: every shape the AC rules look at (loops of awaits, cache
/// lookups behind Task&lt;T&gt;, initialization guards, await using/foreach, Task.Yield, blocking waits, elidable
/// awaits, fast paths with local functions), flagged and silent variants alike. Deterministic, so two runs and
/// two sizes compare: a corpus of 2N lines is the corpus of N lines with each file twice as long.
/// </summary>
public sealed class AsyncCorpus
{
    /// <summary>Files in every corpus: the size grows with the length of each file, so scaling in file size shows.</summary>
    public const int FileCount = 40;

    private AsyncCorpus(ImmutableArray<SyntaxTree> trees, int lines, int unitsPerFile)
    {
        Trees = trees;
        Lines = lines;
        UnitsPerFile = unitsPerFile;
    }

    /// <summary>The smallest corpus: one unit per file.</summary>
    public static int MinimumLines => FileCount * UnitLines;

    public ImmutableArray<SyntaxTree> Trees { get; }

    public int Lines { get; }

    /// <summary>Classes per file; <see cref="Doubled"/> doubles it, so the files are twice as long.</summary>
    public int UnitsPerFile { get; }

    /// <summary>The framework assemblies of the running .NET, as the corpus's references.</summary>
    public static ImmutableArray<MetadataReference> References { get; } =
        ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!)
            .Split(Path.PathSeparator)
            .Where(path => Path.GetFileName(path).StartsWith("System.", StringComparison.Ordinal) || Path.GetFileName(path) is "mscorlib.dll" or "netstandard.dll")
            .Select(path => (MetadataReference)MetadataReference.CreateFromFile(path))
            .ToImmutableArray();

    /// <summary>The smallest corpus of at least <paramref name="lines"/> lines (whole classes per file).</summary>
    public static AsyncCorpus Generate(int lines)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(lines, MinimumLines, nameof(lines));
        return WithUnitsPerFile((lines + (FileCount * UnitLines) - 1) / (FileCount * UnitLines));
    }

    /// <summary>
    /// A tiny compilation against the same references: a contracts library (interfaces, a record, a value type) with no
    /// loops and no awaits, where a rule's fixed per-compilation cost is all there is to see.
    /// </summary>
    public static AsyncCorpus Contracts()
    {
        var tree = CSharpSyntaxTree.ParseText(ContractsSource, new CSharpParseOptions(LanguageVersion.CSharp11), path: "Contracts.cs");
        return new AsyncCorpus([tree], ContractsSource.Count(c => c == '\n'), unitsPerFile: 0);
    }

    /// <summary>The same corpus with every file twice as long.</summary>
    public AsyncCorpus Doubled() => WithUnitsPerFile(2 * UnitsPerFile);

    private static AsyncCorpus WithUnitsPerFile(int unitsPerFile)
    {
        var options = new CSharpParseOptions(LanguageVersion.CSharp11);
        var trees = ImmutableArray.CreateBuilder<SyntaxTree>(FileCount);
        var total = 0;
        for (var file = 0; file < FileCount; file++)
        {
            var text = new StringBuilder();
            text.Append(FileHeader.Replace("$F", file.ToString(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal));
            for (var unit = 0; unit < unitsPerFile; unit++)
            {
                text.Append(Unit.Replace("$N", unit.ToString(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal));
            }
            var source = text.ToString();
            total += source.Count(c => c == '\n');
            trees.Add(CSharpSyntaxTree.ParseText(source, options, path: $"Corpus{file}.cs"));
        }
        return new AsyncCorpus(trees.MoveToImmutable(), total, unitsPerFile);
    }

    /// <summary>A new compilation of the corpus: nothing bound yet, so each one measures a full compile.</summary>
    public CSharpCompilation CreateCompilation() =>
        CSharpCompilation.Create(
            "AsyncCorpus",
            Trees,
            References,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable, concurrentBuild: false));

    private const string ContractsSource = """
        using System.Threading;
        using System.Threading.Tasks;

        namespace Contracts;

        public interface IMessage { }
        public interface IRequest<out TResponse> : IMessage { }
        public interface INotification : IMessage { }
        public interface IRequestHandler<in TRequest, TResponse> where TRequest : IRequest<TResponse>
        {
            Task<TResponse> Handle(TRequest request, CancellationToken cancellationToken);
        }
        public interface INotificationHandler<in TNotification> where TNotification : INotification
        {
            Task Handle(TNotification notification, CancellationToken cancellationToken);
        }
        public readonly struct Unit { public static readonly Unit Value = default; }
        public sealed record Ping(string Text) : IRequest<Unit>;
        public enum Priority { Low, Normal, High }

        """;

    private const string FileHeader = """
        using System;
        using System.Collections.Generic;
        using System.IO;
        using System.Net.Http;
        using System.Runtime.CompilerServices;
        using System.Threading;
        using System.Threading.Tasks;

        namespace Corpus.File$F;

        """;

    private static readonly int UnitLines = Unit.Count(c => c == '\n');

    private const string Unit = """
        public sealed class PriceService$N
        {
            private readonly Dictionary<string, decimal> _cache = new();
            private readonly HttpClient _client = new();
            private bool _initialized;

            public async Task<decimal> GetPriceAsync(string symbol)
            {
                await EnsureInitializedAsync();
                return _cache.TryGetValue(symbol, out var price) ? price : 0m;
            }

            private async Task EnsureInitializedAsync()
            {
                if (_initialized) return;
                await Task.Delay(1).ConfigureAwait(false);
                _initialized = true;
            }

            private async Task<decimal> LookupAsync(string symbol)
            {
                if (_cache.TryGetValue(symbol, out var price)) return price;
                price = await LoadAsync(symbol).ConfigureAwait(false);
                _cache[symbol] = price;
                return price;
            }

            public async Task<List<decimal>> GetAllAsync(IEnumerable<string> symbols)
            {
                var prices = new List<decimal>();
                foreach (var symbol in symbols)
                {
                    prices.Add(await LookupAsync(symbol));
                }
                for (var i = 0; i < 3; i++)
                {
                    await Task.Yield();
                }
                return prices;
            }

            public async Task<int> CountLinesAsync(Stream stream, CancellationToken ct)
            {
                using var reader = new StreamReader(stream);
                var count = 0;
                while (await reader.ReadLineAsync(ct).ConfigureAwait(false) is not null)
                {
                    count++;
                }
                await using var copy = new MemoryStream();
                await foreach (var item in ReadAllAsync(ct))
                {
                    count += item;
                }
                return count;
            }

            public decimal GetBlocking(string symbol) => GetPriceAsync(symbol).Result;

            public async Task<decimal> WaitInsideAsync(SemaphoreSlim gate, string symbol)
            {
                gate.Wait();
                try { return await LookupAsync(symbol).ConfigureAwait(false); }
                finally { gate.Release(); }
            }

            public async Task<string> ElidableAsync(string url) => await _client.GetStringAsync(url);

            public Task<decimal> FastPathAsync(string symbol)
            {
                var pending = EnsureInitializedAsync();
                if (pending.IsCompletedSuccessfully) return Task.FromResult(_cache[symbol]);
                return Slow();
                async Task<decimal> Slow() { await pending.ConfigureAwait(false); return _cache[symbol]; }
            }

            private static async IAsyncEnumerable<int> ReadAllAsync([EnumeratorCancellation] CancellationToken ct)
            {
                for (var i = 0; i < 3; i++)
                {
                    await Task.Delay(1, ct).ConfigureAwait(false);
                    yield return i;
                }
            }

            private static Task<decimal> LoadAsync(string symbol) => Task.FromResult((decimal)symbol.Length);
        }

        """;
}
