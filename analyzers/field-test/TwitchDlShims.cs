// Field test stand-in (twitchdl only): Xabe.FFmpeg.Downloader is not served by the NuGet mirror. The CLI's ffmpeg
// mode uses one method of it, which downloads an FFmpeg build over HTTP; this stand-in does the same kind of work (a
// network request) so the analyzers see a pending operation there, as they would see the package's. Never run here;
// none of this is the tool's code and it is never judged.
using System;
using System.Net.Http;
using System.Threading.Tasks;

namespace Xabe.FFmpeg
{
    public sealed class ProgressInfo
    {
        public long DownloadedBytes { get; set; }
        public long TotalBytes { get; set; }
    }
}

namespace Xabe.FFmpeg.Downloader
{
    public enum FFmpegVersion { Official }

    public static class FFmpegDownloader
    {
        public static async Task GetLatestVersion(FFmpegVersion version, IProgress<Xabe.FFmpeg.ProgressInfo> progress)
        {
            using var client = new HttpClient();
            using var response = await client.GetAsync("https://ffmpeg.invalid/latest").ConfigureAwait(false);
            progress.Report(new Xabe.FFmpeg.ProgressInfo { DownloadedBytes = 1, TotalBytes = 1 });
        }
    }
}
