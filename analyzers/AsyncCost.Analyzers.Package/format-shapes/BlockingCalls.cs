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

    // Synchronous code reading a task it checked: the task has completed. (Synchronous code that blocks on a task
    // not known complete is reported, with no fix: `await` would not compile there.)
    public static int ReadIfDone(Task<int> pending) => pending.IsCompletedSuccessfully ? pending.Result : -1; // keep

    // .Result after `await Task.WhenAll(a, b)`: the SDK's compiler binds it to WhenAll(params ReadOnlySpan<Task>).
    public async Task<string> JoinAsync(Task<int> count, Task<string> name)
    {
        await Task.WhenAll(count, name).ConfigureAwait(false);
        return name.Result + count.Result; // keep
    }
}
