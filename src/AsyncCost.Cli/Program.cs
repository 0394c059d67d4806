using System.Reflection;

// Placeholder entry point until the CLI issue lands its commands: answers --version so the
// packed tool can be smoke-tested from CI.
var version = typeof(Program).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "0.0.0";
if (args is ["--version"])
{
    Console.WriteLine(version);
    return 0;
}

Console.Error.WriteLine("dotnet-asynccost: no commands yet; try --version");
return 1;
