namespace AsyncCost.Benchmarks.HandOff;

/// <summary>The classic hand-off: a dedicated thread per reader and per writer; a reader blocks on its AutoResetEvent.</summary>
public sealed class BlockingHandOff : HandOffProtocol
{
    private readonly AutoResetEvent[] _wakeUps;

    public BlockingHandOff(int readers, int writers, int signals)
        : base(readers, writers, signals) =>
        _wakeUps = Enumerable.Range(0, readers).Select(_ => new AutoResetEvent(false)).ToArray();

    public override long Run()
    {
        var threads = new List<Thread>(Readers + Writers);
        for (var r = 0; r < Readers; r++)
        {
            var reader = r;
            threads.Add(new Thread(() => Read(reader)));
        }
        for (var w = 0; w < Writers; w++)
        {
            var writer = w;
            threads.Add(new Thread(() => WriteSignals(writer)));
        }
        foreach (var thread in threads)
            thread.Start();
        foreach (var thread in threads)
            thread.Join();
        foreach (var wakeUp in _wakeUps)
            wakeUp.Dispose();
        return Received;
    }

    private void Read(int reader)
    {
        while (!Done)
        {
            if (!TryTake(reader))
                _wakeUps[reader].WaitOne(); // an AutoResetEvent keeps a Set that came first: no lost wake-up
        }
    }

    protected override void Wake(int reader) => _wakeUps[reader].Set();
}
