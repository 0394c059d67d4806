namespace AsyncCost.Benchmarks.HandOff;

/// <summary>
/// The async hand-off: readers are async methods awaiting a TaskCompletionSource each; writers run on the thread pool
/// and complete it, which runs the reader's continuation inline on the writer's thread (default options, as in the
/// original).
/// </summary>
public sealed class AsyncHandOff(int readers, int writers, int signals) : HandOffProtocol(readers, writers, signals)
{
    private readonly TaskCompletionSource?[] _waiters = new TaskCompletionSource?[readers];

    public override long Run()
    {
        var tasks = new Task[Readers + Writers];
        for (var r = 0; r < Readers; r++)
            tasks[r] = ReadAsync(r);
        for (var w = 0; w < Writers; w++)
        {
            var writer = w;
            tasks[Readers + w] = Task.Run(() => WriteSignals(writer));
        }
        Task.WaitAll(tasks);
        return Received;
    }

    private async Task ReadAsync(int reader)
    {
        while (!Done)
        {
            if (TryTake(reader))
                continue;
            // Publish the waiter first, then look again: a writer that added a signal before seeing the waiter is
            // caught by the second look; one that came after completes the waiter. The publication is a full fence
            // (Interlocked), or the look could be served before the store is visible and both sides miss each other.
            var waiter = new TaskCompletionSource();
            Interlocked.Exchange(ref _waiters[reader], waiter);
            if (HasPending(reader) || Done)
                continue;
            await waiter.Task;
        }
    }

    protected override void Wake(int reader) => Interlocked.Exchange(ref _waiters[reader], null)?.TrySetResult();
}
