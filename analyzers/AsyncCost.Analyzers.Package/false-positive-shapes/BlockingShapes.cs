// AC0006 false-positive shapes: reads of tasks that have completed, built by the SDK's own compiler (whose C# binds
// `Task.WhenAll(a, b)` to the params ReadOnlySpan<Task> overload), and the enum form of the sync/async mode idiom.
using System;
using System.Threading;
using System.Threading.Tasks;

namespace FalsePositiveShapes;

public sealed class Inventory
{
    public Task<int> CountAsync(string sku) => Task.Run(() => sku.Length);

    public Task<string> NameAsync(string sku) => Task.Run(() => sku.ToUpperInvariant());
}

public enum IOBehavior
{
    Synchronous,
    Asynchronous,
}

public sealed class BlockingShapes
{
    private readonly Inventory _inventory = new();
    private readonly SemaphoreSlim _gate = new(1);

    // Joined by await Task.WhenAll: instance calls on a field, a local and a parameter, different result types.
    public async Task<string> DescribeAsync(Inventory other, string sku)
    {
        var local = new Inventory();
        var count = _inventory.CountAsync(sku);
        var name = local.NameAsync(sku);
        var again = other.CountAsync(sku);
        await Task.WhenAll(count, name, again).ConfigureAwait(false);
        return name.Result + count.Result + again.Result;
    }

    // The enum mode idiom: the synchronous API passes IOBehavior.Synchronous to a core that awaits only otherwise.
    public int Read(string sku) => ReadAsync(IOBehavior.Synchronous, sku).GetAwaiter().GetResult();

    public ValueTask<int> ReadAsync(string sku) => ReadAsync(IOBehavior.Asynchronous, sku);

    private async ValueTask<int> ReadAsync(IOBehavior io, string sku)
    {
        if (io == IOBehavior.Asynchronous)
        {
            await _gate.WaitAsync().ConfigureAwait(false);
        }
        else
        {
            _gate.Wait();
        }
        try
        {
            return sku.Length;
        }
        finally
        {
            _gate.Release();
        }
    }

    // The continuation's own antecedent, and a completion check in synchronous code.
    public static Task<int> Next(Task<int> first) => first.ContinueWith(done => done.Result + 1, TaskScheduler.Default);

    public static int ReadIfDone(Task<int> pending) => pending.IsCompletedSuccessfully ? pending.Result : -1;
}
