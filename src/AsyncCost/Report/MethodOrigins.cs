using AsyncCost.Attribution;

namespace AsyncCost.Report;

/// <summary>Tells the application's own async methods from the framework's and libraries' (see <see cref="MethodOrigin"/>).</summary>
internal static class MethodOrigins
{
    private static readonly string[] FrameworkPrefixes = ["System.", "Microsoft."];

    /// <summary>The method's assembly name (when its module is known) and its origin.</summary>
    /// <param name="typeKey">The method's type, namespace-qualified (<see cref="AsyncMethodName.TypeKey"/>).</param>
    /// <param name="modulePath">The path of its module, from the trace's module events; null when unknown.</param>
    public static (string? Assembly, MethodOrigin Origin) Of(string typeKey, string? modulePath)
    {
        if (modulePath is null)
        {
            // No module events: the namespace is all there is to go by.
            return (null, IsFrameworkName(typeKey) ? MethodOrigin.Framework : MethodOrigin.User);
        }
        var assembly = Path.GetFileNameWithoutExtension(modulePath.Replace('\\', '/'));
        return (assembly, !AssemblyAsyncMethods.IsUserModule(modulePath) || IsFrameworkName(assembly) ? MethodOrigin.Framework : MethodOrigin.User);
    }

    private static bool IsFrameworkName(string name) =>
        name is "System" or "Microsoft" || FrameworkPrefixes.Any(prefix => name.StartsWith(prefix, StringComparison.Ordinal));
}
