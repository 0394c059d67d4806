// Field test stand-in (dmt only): System.CommandLine.Hosting (0.4.0-alpha) is not served by the NuGet mirror. The
// data migration tool's Program.cs uses three of its extension methods; these stand in so the host compiles (they
// are never run here). None of this is the tool's code; it is never judged.
using System;
using System.CommandLine.Builder;
using System.CommandLine.Invocation;
using Microsoft.Extensions.Hosting;

namespace System.CommandLine.Hosting
{
    internal static class FieldHostingShims
    {
        public static CommandLineBuilder UseHost(this CommandLineBuilder builder,
            Func<string[], IHostBuilder> hostBuilderFactory, Action<IHostBuilder> configureHost) => builder;

        public static IHost GetHost(this InvocationContext context) => throw new NotSupportedException("field-test stand-in");

        public static IHostBuilder UseCommandHandler<TCommand, THandler>(this IHostBuilder builder) => builder;
    }
}
