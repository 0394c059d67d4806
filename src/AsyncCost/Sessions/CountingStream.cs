namespace AsyncCost.Sessions;

/// <summary>
/// A read-only pass-through that counts bytes and optionally copies them to a file (the saved .nettrace); a read after
/// <paramref name="stop"/> is cancelled throws, so whoever is parsing the stream stops at once.
/// </summary>
internal sealed class CountingStream(Stream inner, Stream? copy, CancellationToken stop = default) : Stream
{
    private long _bytes;

    /// <summary>Bytes read so far (safe to read from another thread).</summary>
    public long BytesRead => Interlocked.Read(ref _bytes);

    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => false;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => BytesRead; set => throw new NotSupportedException(); }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        stop.ThrowIfCancellationRequested();
        var read = inner.Read(buffer);
        if (read > 0)
        {
            copy?.Write(buffer[..read]);
            Interlocked.Add(ref _bytes, read);
        }
        return read;
    }

    public override void Flush() => copy?.Flush();
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            copy?.Dispose();
        }
        base.Dispose(disposing);
    }
}
