// Field-test stand-ins for packages the NuGet mirror does not serve, used by Jellyfin (jellyfin only): the members
// Jellyfin calls, with the same signatures, so its projects compile; none of them is async and none is analyzed as
// Jellyfin's code (findings in this file are not counted).
#if FIELD_SHIM_JELLYFIN_EXTENSIONS
namespace ICU4N.Text
{
    internal sealed class Transliterator
    {
        public static Transliterator GetInstance(string id) => new();

        public string Transliterate(string text) => text;
    }
}

namespace Diacritics.Extensions
{
    // Public extension methods, as in the package: MediaBrowser.Controller calls them through Jellyfin.Extensions.
    public static class StringExtensions
    {
        public static string RemoveDiacritics(this string text) => text;

        public static bool HasDiacritics(this string text) => false;
    }
}
#endif

#if FIELD_SHIM_JELLYFIN_MODEL
namespace MediaBrowser.Model
{
    internal static class MimeTypes
    {
        public static bool TryGetMimeType(string fileName, out string mimeType)
        {
            mimeType = "application/octet-stream";
            return false;
        }

        public static global::System.Collections.Generic.IEnumerable<string> GetMimeTypeExtensions(string mimeType) => [];
    }
}
#endif
