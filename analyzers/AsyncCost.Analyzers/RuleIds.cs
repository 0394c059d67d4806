namespace AsyncCost.Analyzers;

/// <summary>The rule ids. Fixed once shipped: suppressions and .editorconfig files name them.</summary>
public static class RuleIds
{
    public const string AwaitInLoop = "AC0001";
    public const string PreferValueTask = "AC0002";
    public const string SynchronousFastPath = "AC0003";
    public const string MissingConfigureAwait = "AC0004";
    public const string TaskYieldInLoop = "AC0005";
    public const string BlockingOnTask = "AC0006";
    public const string BlockingWaitInAsync = "AC0007";
    public const string ElidableStateMachine = "AC0008";
    public const string FastPathClosure = "AC0009";
    public const string BlockingInSynchronousContract = "AC0010";
    public const string BlockingInTest = "AC0011";
    public const string LongRunningAsyncStart = "AC0012";
    public const string WhenAnyInLoop = "AC0013";
}
