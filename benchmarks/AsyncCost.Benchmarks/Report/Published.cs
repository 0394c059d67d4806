namespace AsyncCost.Benchmarks.Report;

/// <summary>
/// The figures the seeds in ../shared/seeds publish, as printed there (the report derives everything else from these
/// and checks their arithmetic). Units are in the names.
/// </summary>
public static class Published
{
    /// <summary>Seed 000: one row of either table (500,000 units).</summary>
    public sealed record ContextSwitchRow(string Scenario, int WorkIterations, double TotalMilliseconds, double MicrosecondsPerUnitAsPrinted);

    public const int ContextSwitchUnits = 500_000;

    public static readonly ContextSwitchRow[] ContextSwitches =
    [
        new("No-switch", 0, 0, 0.0002),
        new("Async w/o yield", 0, 67, 0.0353),
        new("Async w/ yield", 0, 664, 0.349),
        new("Thread switches", 0, 5215, 2.7412),
        new("No-switch", 500, 380, 0.1998),
        new("Async w/o yield", 500, 368, 0.1935),
        new("Async w/ yield", 500, 832, 0.4374),
        new("Thread switches", 500, 5185, 2.7257),
    ];

    /// <summary>Seed 001: the 2 MB sample run on a c6i.4xlarge (Ice Lake, 3.2 GHz), CPython, 4,000,000 loads per thread.</summary>
    public static class WarmupTax
    {
        public const double NoSwitchMilliseconds = 1_820.5;
        public const double SwitchingMilliseconds = 5_394.2;
        public const double WallTimeRatio = 2.96;
        public const long NoSwitchCycles = 5_824_160_310;
        public const long NoSwitchInstructions = 12_802_114_907;
        public const long SwitchingCycles = 17_261_300_994;
        public const long SwitchingInstructions = 25_610_118_403;
        public const double NoSwitchIpc = 2.20;
        public const double SwitchingIpc = 1.48;
        public const long NoSwitchContextSwitches = 7;
        public const long SwitchingContextSwitches = 80_402;

        /// <summary>The write-up's "cycles of warmup tax" and their share of the switching run's cycles.</summary>
        public const long ClaimedWarmupTaxCycles = 5_824_160_310;

        public const double ClaimedWarmupTaxShare = 0.71;
    }

    /// <summary>Seed 002: profiler figures from a WPF app on .NET 4.5.</summary>
    public static class FirstCall
    {
        public const double SyncFirstCallMilliseconds = 1; // "just over 1ms"
        public const double AsyncFirstCallMilliseconds = 70; // "over 70ms"
        public const double AsyncFirstCallToAwaitMilliseconds = 45;
        public const double SyncThousandCallsMilliseconds = 1_000; // "barely any more time than the 1000ms"
        public const double AsyncThousandCallsOverheadMilliseconds = 150;
        public const double AsyncThousandCallsOverheadPercent = 15;
    }

    /// <summary>Seed 003: one row of the StockPrices tables; null where a table has no such column.</summary>
    public sealed record StockPricesRow(int Table, string Method, double MeanMicroseconds, double Scaled, double AllocatedBytes);

    public static readonly StockPricesRow[] StockPrices =
    [
        new(1, "GetPricesDirectlyFromCache", 2.177, 0.96, 0),
        new(1, "GetStockPriceFor", 2.268, 1.00, 0),
        new(1, "GetStockPriceForAsync", 2.523, 1.11, 88),
        new(2, "GetPricesDirectlyFromCache", 1.260, 0.90, 0),
        new(2, "GetStockPriceFor", 1.399, 1.00, 0),
        new(2, "GetStockPriceForAsync", 1.552, 1.11, 88),
        new(2, "GetStockPriceWithValueTaskAsync", 1.519, 1.09, 0),
        new(3, "GetStockPriceFor", 2.332, 1.00, 0),
        new(3, "GetStockPriceForAsync", 2.505, 1.07, 88),
        new(3, "GetStockPriceWithValueTaskAsync", 2.625, 1.13, 0),
        new(3, "GetStockPriceFor_Await", 6.441, 2.76, 296),
        new(3, "GetStockPriceForAsync_Await", 10.439, 4.48, 553),
        new(3, "GetStockPriceWithValueTaskAsync_Await", 10.455, 4.48, 577),
    ];

    /// <summary>Seed 003's summary figures: "about 4us and almost 300B per unfinished await", 88 B per Task&lt;T&gt;.</summary>
    public const double UnfinishedAwaitMicroseconds = 4;

    public const double UnfinishedAwaitBytes = 300;
    public const double CompletedTaskOfDecimalBytes = 88;

    /// <summary>Seed 004: iterations of the 1 reader / 1 writer loop, and memory for 2^17 waiters (Windows).</summary>
    public static class HandOff
    {
        public const double BlockingLoopIterations = 355e6;
        public const double AsyncLoopIterations = 141e6;
        public const int Waiters = 1 << 17;
        public const double ThreadsBytes = 4.0 * 1024 * 1024 * 1024;
        public const double AwaitsBytes = 750.0 * 1024 * 1024;
        public const int LinuxThreadLimit = 16_384; // "failed at 16k threads because of a configured system limit"
    }
}
