namespace AsyncCost.Sessions;

/// <summary>
/// Drains an EventPipe session's stream into a file as fast as the runtime sends it, and reads the file back behind it.
/// The runtime's buffers then empty at disk speed, not at parsing speed: a hop pass writes events faster than they can be
/// parsed beside the workload on 2 cores, and a runtime whose buffers fill drops events (silently, when the process exits
/// before the next sequence point). The file is the saved .nettrace when one was asked for, else a temporary file deleted on
/// disposal. <see cref="Reader"/> reads it back; disposing that (as a parser does with its stream) keeps the file for a later
/// read of the whole (the cpu pass's stacks).
/// </summary>
internal sealed class SpooledStream : IDisposable
{
    private const int ChunkSize = 1 << 16;

    private readonly FileStream _file;
    private readonly FileStream _readBack;
    private readonly string? _temporaryPath;
    private readonly SemaphoreSlim _arrived = new(0);
    private long _received;
    private long _read;
    private volatile bool _ended;
    private Exception? _writeFailure;

    private SpooledStream(FileStream file, string? temporaryPath)
    {
        _file = file;
        _temporaryPath = temporaryPath;
        _readBack = new FileStream(file.Name, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0);
        Reader = new ReadBackStream(this);
    }

    /// <summary>The spooled bytes in order: a read blocks until more have arrived, and returns 0 once all have been read.</summary>
    public Stream Reader { get; }

    /// <summary>Completes when the session's stream has ended (the process exited or the session stopped) and all of it is in the file.</summary>
    public Task Received { get; private set; } = Task.CompletedTask;

    /// <summary>The file the stream is spooled to.</summary>
    public string FilePath => _file.Name;

    /// <summary>Bytes the session has sent so far (safe to read from another thread).</summary>
    public long BytesReceived => Interlocked.Read(ref _received);

    /// <summary>Bytes handed to the parser so far (safe to read from another thread).</summary>
    public long BytesRead => Interlocked.Read(ref _read);

    /// <summary>Starts draining <paramref name="source"/> into <paramref name="outputFile"/>, or into a temporary file when it is null.</summary>
    /// <exception cref="OutputNotWritableException">The file cannot be created.</exception>
    public static SpooledStream Start(Stream source, string? outputFile)
    {
        var path = outputFile ?? Path.Combine(Path.GetTempPath(), $"asynccost-{Guid.NewGuid():N}.nettrace");
        FileStream file;
        try
        {
            file = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new OutputNotWritableException(path, e);
        }
        var spool = new SpooledStream(file, outputFile is null ? path : null);
        spool.Received = Task.Factory.StartNew(() => spool.Drain(source), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        return spool;
    }

    private void Drain(Stream source)
    {
        var chunk = new byte[ChunkSize];
        try
        {
            int count;
            while ((count = ReadSource(source, chunk)) > 0)
            {
                _file.Write(chunk, 0, count);
                Interlocked.Add(ref _received, count);
                _arrived.Release();
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ObjectDisposedException)
        {
            _writeFailure = e; // the disk, not the session: reported by ThrowIfWriteFailed, never taken for the end of the trace
        }
        finally
        {
            _ended = true;
            _arrived.Release();
        }
    }

    private static int ReadSource(Stream source, byte[] chunk)
    {
        try
        {
            return source.Read(chunk, 0, chunk.Length);
        }
        catch (Exception e) when (e is IOException or ObjectDisposedException or EndOfStreamException)
        {
            return 0; // the process went away mid-block, or the session was disposed after a stop timeout: what arrived is kept
        }
    }

    /// <summary>Throws when the spool file could not be written: the trace read back is then incomplete.</summary>
    public void ThrowIfWriteFailed()
    {
        if (_writeFailure is { } failure)
        {
            throw new OutputNotWritableException(_file.Name, failure);
        }
    }

    /// <summary>Blocks until bytes beyond those read have arrived; 0 once the stream has ended and all of it was read.</summary>
    private int Read(Span<byte> buffer)
    {
        while (true)
        {
            var ended = _ended; // read before the count: bytes received before the end are then all counted
            var available = BytesReceived - _read;
            if (available > 0)
            {
                var count = _readBack.Read(buffer[..(int)Math.Min(buffer.Length, available)]);
                Interlocked.Add(ref _read, count);
                return count;
            }
            if (ended)
            {
                return 0;
            }
            _arrived.Wait();
        }
    }

    /// <summary>Call once <see cref="Received"/> has completed (the session's stream has ended).</summary>
    public void Dispose()
    {
        _readBack.Dispose();
        _file.Dispose();
        _arrived.Dispose();
        if (_temporaryPath is not null)
        {
            File.Delete(_temporaryPath);
        }
    }

    private sealed class ReadBackStream(SpooledStream spool) : Stream
    {
        public override bool CanRead => true;
        public override bool CanSeek => false;
        public override bool CanWrite => false;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => spool.BytesRead; set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count) => spool.Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer) => spool.Read(buffer);

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
