// Field-test stand-in for Avalonia.Desktop and Avalonia.Skia (the mirror does not serve the platform packages they
// need), used by git-credential-manager (gcm only): the two AppBuilder extensions GCM calls, so its projects compile.
// Not async; findings in this file are not counted.
namespace Avalonia
{
    public static class FieldDesktopShimExtensions
    {
        public static AppBuilder UsePlatformDetect(this AppBuilder builder) => builder;

        public static AppBuilder UseSkia(this AppBuilder builder) => builder;
    }
}
