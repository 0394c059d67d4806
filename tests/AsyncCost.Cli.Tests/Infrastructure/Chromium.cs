using Microsoft.Playwright;

namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>
/// Debian's chromium, driven headless through Playwright's driver (the package's own node; no browser is downloaded).
/// One browser for a test class; each test opens its own context. The flags keep the browser off the network, as this
/// machine's closed network needs: no background connections, no component updates, no sync.
/// </summary>
public sealed class Chromium : IAsyncLifetime
{
    private static readonly string[] Candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

    private IPlaywright? _playwright;

    public IBrowser Browser { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        var path = Environment.GetEnvironmentVariable("ASYNCCOST_CHROMIUM") is { Length: > 0 } configured ? configured : Candidates.FirstOrDefault(File.Exists);
        Assert.True(path is not null && File.Exists(path),
            "chromium is not installed (Debian: apt-get install chromium; the README's test command, ./build.sh test, installs it), "
            + "or set ASYNCCOST_CHROMIUM to a Chromium executable.");
        _playwright = await Playwright.CreateAsync();
        Browser = await _playwright.Chromium.LaunchAsync(new()
        {
            ExecutablePath = path,
            Headless = true,
            Args = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        });
    }

    /// <summary>A page on a local file, with every request it makes recorded (a self-contained page makes none but its own).</summary>
    public async Task<(IPage Page, List<string> Requests)> OpenAsync(string file, int width = 1200, int height = 900)
    {
        var context = await Browser.NewContextAsync(new() { ViewportSize = new() { Width = width, Height = height } });
        var requests = new List<string>();
        // Anything but the file itself is recorded and refused, so a page that reached out would fail the test, not the network.
        await context.RouteAsync("**/*", async route =>
        {
            lock (requests)
            {
                requests.Add(route.Request.Url);
            }
            if (route.Request.Url.StartsWith("file:", StringComparison.Ordinal))
            {
                await route.ContinueAsync();
            }
            else
            {
                await route.AbortAsync();
            }
        });
        var page = await context.NewPageAsync();
        await page.GotoAsync(new Uri(file).AbsoluteUri);
        return (page, requests);
    }

    public async Task DisposeAsync()
    {
        if (Browser is not null)
        {
            await Browser.CloseAsync();
        }
        _playwright?.Dispose();
    }
}
