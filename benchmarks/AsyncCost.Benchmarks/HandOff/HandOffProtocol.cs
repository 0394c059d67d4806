namespace AsyncCost.Benchmarks.HandOff;

/// <summary>
/// What both hand-off variants share: per reader a count of signals not yet picked up; writers add to it round-robin
/// and wake the reader only on 0 → 1 (a reader with pending signals is awake or about to look); the reader that picks
/// up the last signal ends the run and wakes everyone. Subclasses supply the waiting primitive.
/// </summary>
public abstract class HandOffProtocol
{
    private readonly int[] _pending;
    private readonly int _writers;
    private readonly int _signals;
    private long _received;
    private volatile bool _done;

    protected HandOffProtocol(int readers, int writers, int signals)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(readers, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(writers, 1);
        _pending = new int[readers];
        _writers = writers;
        _signals = signals;
    }

    protected int Readers => _pending.Length;

    protected int Writers => _writers;

    protected bool Done => _done;

    /// <summary>Runs all readers and writers to the end; returns the signals received (= sent).</summary>
    public abstract long Run();

    /// <summary>Writer <paramref name="writer"/>'s share of the signals, sent round-robin from its own offset.</summary>
    protected void WriteSignals(int writer)
    {
        var share = _signals / _writers + (writer < _signals % _writers ? 1 : 0);
        var reader = writer % _pending.Length;
        for (var i = 0; i < share; i++)
        {
            if (Interlocked.Increment(ref _pending[reader]) == 1)
                Wake(reader);
            if (++reader == _pending.Length)
                reader = 0;
        }
    }

    /// <summary>Takes reader <paramref name="reader"/>'s pending signals; true when there were any.</summary>
    protected bool TryTake(int reader)
    {
        var taken = Interlocked.Exchange(ref _pending[reader], 0);
        if (taken == 0)
            return false;
        if (Interlocked.Add(ref _received, taken) == _signals)
        {
            _done = true;
            for (var r = 0; r < _pending.Length; r++)
                Wake(r);
        }
        return true;
    }

    protected bool HasPending(int reader) => Volatile.Read(ref _pending[reader]) != 0;

    protected long Received => Interlocked.Read(ref _received);

    /// <summary>Wakes reader <paramref name="reader"/> if it waits (a wake of an awake reader must be harmless).</summary>
    protected abstract void Wake(int reader);
}
