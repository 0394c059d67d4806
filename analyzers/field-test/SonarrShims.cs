// Field-test stand-ins for packages the NuGet mirror does not serve, used by Sonarr.Common (sonarr only): the
// members it uses, with the same shapes, so the project compiles. None is async; findings here are not counted.
namespace Diacritical
{
    public interface IDiacriticProvider
    {
        System.Collections.Generic.IDictionary<char, string> Provide();
    }

    public static class DiacriticMap
    {
        public static void AddProviders(params IDiacriticProvider[] providers)
        {
        }
    }

    public static class StringExtensions
    {
        public static string RemoveDiacritics(this string text) => text;
    }
}

namespace NLog.Layouts.ClefJsonLayout
{
    public class CompactJsonLayout : NLog.Layouts.JsonLayout
    {
    }
}
