// Field test stand-in (testproxy only): Microsoft.Security.Utilities.Core is not served by the NuGet mirror. The test
// proxy uses three of its types to scan recordings for secrets before a push; these no-ops keep that code compiling.
// None of this is the test proxy's code; it is never judged.
using System.Collections.Generic;

namespace Microsoft.Security.Utilities
{
    public sealed class Detection
    {
        public string Id { get; set; } = "";
        public string Name { get; set; } = "";
        public int Start { get; set; }
        public int End { get; set; }
    }

    public static class WellKnownRegexPatterns
    {
        public static IEnumerable<object> HighConfidenceMicrosoftSecurityModels { get; } = new List<object>();
        public static IEnumerable<object> LowConfidencePotentialSecurityKeys { get; } = new List<object>();
    }

    public sealed class SecretMasker
    {
        public SecretMasker(IEnumerable<object> patterns, bool generateCorrelatingIds = false) { }

        public ICollection<Detection> DetectSecrets(string input) => new List<Detection>();
    }
}
