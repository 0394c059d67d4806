using System.IO.Pipes;
using AsyncCost.Sessions;

namespace AsyncCost.Tests.Sessions;

public class SpooledStreamTests
{
    private static byte[] Pattern(int length) => [.. Enumerable.Range(0, length).Select(i => (byte)(i * 7))];

    [Fact]
    public async Task Drains_the_source_ahead_of_a_slow_reader_and_hands_every_byte_over_in_order()
    {
        // A pipe holds only what the kernel buffers: unless the spool drains it, the writer blocks, as a runtime whose
        // session is not read blocks (and then drops events).
        var sent = Pattern(4 << 20);
        using var server = new AnonymousPipeServerStream(PipeDirection.Out);
        using var client = new AnonymousPipeClientStream(PipeDirection.In, server.ClientSafePipeHandle);
        using var spool = SpooledStream.Start(client, outputFile: null);

        var writing = Task.Run(() =>
        {
            server.Write(sent);
            server.Dispose();
        });
        await writing.WaitAsync(TimeSpan.FromSeconds(30)); // done before a single byte was read
        await spool.Received.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(sent.Length, spool.BytesReceived);
        Assert.Equal(0, spool.BytesRead);

        var read = new MemoryStream();
        spool.Reader.CopyTo(read, 1000);
        Assert.Equal(sent, read.ToArray());
        Assert.Equal(0, spool.Reader.Read(new byte[10]));
    }

    [Fact]
    public async Task A_reader_ahead_of_the_source_waits_for_more_and_ends_with_it()
    {
        using var server = new AnonymousPipeServerStream(PipeDirection.Out);
        using var client = new AnonymousPipeClientStream(PipeDirection.In, server.ClientSafePipeHandle);
        using var spool = SpooledStream.Start(client, outputFile: null);
        var reading = Task.Run(() =>
        {
            var read = new MemoryStream();
            spool.Reader.CopyTo(read);
            return read.ToArray();
        });

        server.Write([1, 2, 3]);
        await Task.Delay(200);
        Assert.False(reading.IsCompleted);
        server.Write([4, 5]);
        server.Dispose();

        Assert.Equal([1, 2, 3, 4, 5], await reading.WaitAsync(TimeSpan.FromSeconds(30)));
    }

    [Fact]
    public async Task The_spool_is_the_saved_trace_when_one_is_asked_for_and_a_temporary_file_otherwise()
    {
        var directory = Directory.CreateTempSubdirectory("asynccost-spool-").FullName;
        try
        {
            var saved = Path.Combine(directory, "run.nettrace");
            var sent = Pattern(100_000);
            using (var spool = SpooledStream.Start(new MemoryStream(sent), saved))
            {
                await spool.Received.WaitAsync(TimeSpan.FromSeconds(30));
                spool.Reader.CopyTo(Stream.Null);
            }
            Assert.Equal(sent, await File.ReadAllBytesAsync(saved));

            string temporary;
            using (var spool = SpooledStream.Start(new MemoryStream(sent), outputFile: null))
            {
                await spool.Received.WaitAsync(TimeSpan.FromSeconds(30));
                temporary = spool.FilePath;
                Assert.Equal(sent.Length, new FileInfo(temporary).Length);
            }
            Assert.False(File.Exists(temporary));
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    [Fact]
    public void An_output_file_that_cannot_be_created_is_reported_as_such()
    {
        var missing = Path.Combine(Path.GetTempPath(), $"asynccost-missing-{Guid.NewGuid():N}", "run.nettrace");
        var error = Assert.Throws<OutputNotWritableException>(() => SpooledStream.Start(new MemoryStream([1]), missing));
        Assert.Contains(missing, error.Message, StringComparison.Ordinal);
    }
}
