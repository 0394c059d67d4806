using System.Runtime.InteropServices;

namespace AsyncCost.Os;

/// <summary>POSIX signals to processes the tool started (Process.Kill only sends SIGKILL, which gives a .NET runtime no
/// chance to remove its diagnostic socket and debugger pipes).</summary>
internal static partial class Signals
{
    private const int SigTerm = 15;

    /// <summary>Asks the process to stop (SIGTERM): a .NET runtime shuts down and cleans up after itself. False when the
    /// signal could not be sent (no such process, or not on Linux/macOS).</summary>
    public static bool Terminate(int processId) =>
        (OperatingSystem.IsLinux() || OperatingSystem.IsMacOS()) && Kill(processId, SigTerm) == 0;

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int processId, int signal);
}
