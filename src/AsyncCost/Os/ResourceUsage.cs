using System.Runtime.InteropServices;

namespace AsyncCost.Os;

/// <summary>Context-switch counts from getrusage(2): whole process (including exited threads) or the calling thread.</summary>
internal static partial class ResourceUsage
{
    private const int RusageSelf = 0;
    private const int RusageThread = 1;

    // struct rusage on 64-bit Linux: two timevals (4 longs) then 14 longs; ru_nvcsw and ru_nivcsw are the last two.
    private const int RusageLongs = 18;

    /// <summary>(voluntary, involuntary) switches of every thread the process ever ran, or null off Linux.</summary>
    public static (long Voluntary, long Involuntary)? Process() => Read(RusageSelf);

    /// <summary>(voluntary, involuntary) switches of the calling thread, or null off Linux.</summary>
    public static (long Voluntary, long Involuntary)? CurrentThread() => Read(RusageThread);

    private static unsafe (long, long)? Read(int who)
    {
        if (!OperatingSystem.IsLinux() || RuntimeInformation.ProcessArchitecture is not (Architecture.X64 or Architecture.Arm64))
        {
            return null;
        }
        var buffer = stackalloc long[RusageLongs];
        return GetRusage(who, buffer) == 0 ? (buffer[16], buffer[17]) : null;
    }

    [LibraryImport("libc", EntryPoint = "getrusage", SetLastError = true)]
    private static unsafe partial int GetRusage(int who, long* usage);
}
