// Field-test stand-in for the MiniValidation package (not served by the NuGet mirror); same signature as used by TodoApi.
namespace MiniValidation
{
    internal static class MiniValidator
    {
        public static bool TryValidate<T>(T target, out System.Collections.Generic.IDictionary<string, string[]> errors)
        {
            errors = new System.Collections.Generic.Dictionary<string, string[]>();
            return true;
        }
    }
}
