using System;
using System.Threading;
using System.Threading.Tasks;

namespace Consumer;

// Checked by verify-package.sh: `dotnet format analyzers --diagnostics AC0006` must rewrite every line marked
// "fix" into an await configured with ConfigureAwait(false), and leave every line marked "keep" as it is.

public class Orders
{
    // Async methods that block: dotnet format makes each an await (configured: this is a library).
    public async Task<int> TotalAsync(Task<int> pending)
    {
        await Task.Delay(1).ConfigureAwait(false);
        return pending.Result + 1; // fix
    }

    public async Task FlushAsync(Task work)
    {
        await Task.Delay(1).ConfigureAwait(false);
        work.Wait(); // fix
    }

    public async Task<string> NameAsync(Task<string> lookup)
    {
        await Task.Delay(1).ConfigureAwait(false);
        return lookup.GetAwaiter().GetResult(); // fix
    }

    public async Task BothAsync(Task first, Task second)
    {
        await Task.Delay(1).ConfigureAwait(false);
        Task.WaitAll(first, second); // fix
    }

    // Reads of tasks known complete, in async code: not touched.
    public async Task<int> CachedAsync(Task<int> pending)
    {
        var ready = Task.FromResult(2);
        await pending.ConfigureAwait(false);
        if (pending.IsCompletedSuccessfully) return pending.Result + ready.Result; // keep
        return pending.Result; // keep
    }

    // The bool async idiom: the synchronous API blocks on a task that completes synchronously by construction.
    public int Count() => CountCore(async: false).GetAwaiter().GetResult(); // keep

    public Task<int> CountAsync() => CountCore(async: true);

    private static async Task<int> CountCore(bool async)
    {
        if (async)
        {
            await Task.Delay(1).ConfigureAwait(false);
        }
        return 3;
    }

    // .Result after a successful timed Wait: the task has completed.
    public static int ReadWithin(Task<int> pending)
    {
        if (!pending.Wait(1000)) throw new TimeoutException(); // keep
        return pending.Result; // keep
    }
}
