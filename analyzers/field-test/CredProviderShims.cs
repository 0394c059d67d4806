// Field-test stand-in for a package the NuGet mirror does not serve (PowerArgs, the command-line parser of
// CredentialProvider.Microsoft; credprovider only): the members it uses, with the same shapes, so the project
// compiles. Findings here are not counted.
namespace PowerArgs
{
    [System.AttributeUsage(System.AttributeTargets.All, AllowMultiple = true)]
    public sealed class ArgDescription : System.Attribute
    {
        public ArgDescription(string description)
        {
        }
    }

    [System.AttributeUsage(System.AttributeTargets.All, AllowMultiple = true)]
    public sealed class ArgShortcut : System.Attribute
    {
        public ArgShortcut(string shortcut)
        {
        }
    }

    [System.AttributeUsage(System.AttributeTargets.All, AllowMultiple = true)]
    public sealed class ArgDefaultValue : System.Attribute
    {
        public ArgDefaultValue(object value)
        {
        }
    }

    public static class Args
    {
        public static System.Threading.Tasks.Task<T> ParseAsync<T>(params string[] args)
            where T : new() => System.Threading.Tasks.Task.FromResult(new T());
    }

    public static class ArgUsage
    {
        public static string GenerateUsageFromTemplate<T>() => typeof(T).Name;
    }
}
