using System.ComponentModel;

namespace AsyncCost.Report;

/// <summary>What a pass's operations are.</summary>
public enum OperationKind
{
    /// <summary>Operations the run printed ('asynccost: N operations') or that were given ('--operations N').</summary>
    Operation,

    /// <summary>The requests an ASP.NET Core process completed while the pass recorded (Kestrel's RequestStop events): a
    /// pass that knows no operations otherwise counts its requests.</summary>
    Request,
}

/// <summary>The requests an ASP.NET Core process served while one pass recorded, from Kestrel's RequestStart and
/// RequestStop events, per endpoint.</summary>
public sealed record RequestFigures
{
    /// <summary>Requests completed while the pass recorded (its RequestStop events).</summary>
    [Description("Requests completed while the pass recorded (Kestrel's RequestStop events); a pass that knows no operations otherwise has these as its operations.")]
    public long Completed { get; init; }

    /// <summary>Of those, the requests timed: their RequestStart was recorded in the same stream.</summary>
    [Description("Of the completed requests, those timed from their RequestStart to their RequestStop, both in one stream (a request that began before the recording, or in an earlier slice, counts untimed).")]
    public long Timed { get; init; }

    /// <summary>Per endpoint, most requests first.</summary>
    [Description("Per endpoint (the method and the path with id-like segments as {id}: digits, a GUID, 16 or more hex digits), most requests first.")]
    public IReadOnlyList<EndpointFigures> Endpoints { get; init; } = [];
}

/// <summary>One endpoint's requests in a pass.</summary>
public sealed record EndpointFigures
{
    /// <summary>"GET /checkout/{id}": the method and the path, id-like segments as "{id}".</summary>
    public required string Endpoint { get; init; }

    /// <summary>Requests completed.</summary>
    public long Requests { get; init; }

    /// <summary>Requests completed per second of the pass (its windows' gaps included).</summary>
    public double? RequestsPerSecond { get; init; }

    /// <summary>The timed requests' durations, RequestStart to RequestStop, in milliseconds: mean, p50, p90 and p99, with
    /// their sample count; null when none was timed.</summary>
    public TimeDistribution? Milliseconds { get; init; }
}

/// <summary>
/// A distribution of durations in milliseconds: the mean with its 95 % bound beside the 50th, 90th and 99th percentiles, each
/// with a 95 % distribution-free interval, and the number of durations behind them. Percentiles are read from buckets of
/// ±1 %; with few durations the top of an interval is the longest seen (read it with <see cref="Samples"/>).
/// </summary>
public sealed record TimeDistribution
{
    /// <summary>Durations behind the figures.</summary>
    public long Samples { get; init; }

    /// <summary>The mean, with its Student-t bound.</summary>
    public Figure? Mean { get; init; }

    /// <summary>The median.</summary>
    public Percentile? P50 { get; init; }

    /// <summary>The 90th percentile.</summary>
    public Percentile? P90 { get; init; }

    /// <summary>The 99th percentile.</summary>
    public Percentile? P99 { get; init; }
}

/// <summary>One percentile of a distribution and its 95 % interval.</summary>
public sealed record Percentile
{
    /// <summary>The percentile's value.</summary>
    public double Milliseconds { get; init; }

    /// <summary>The bottom of its 95 % interval: the duration at rank n·p − 1.96 √(n·p·(1−p)).</summary>
    [Description("The bottom of the percentile's 95 % distribution-free interval: the duration at rank n·p − 1.96·√(n·p·(1−p)).")]
    public double LowerMilliseconds { get; init; }

    /// <summary>The top of its 95 % interval: the duration at rank n·p + 1.96 √(n·p·(1−p)) + 1, at most the longest seen.</summary>
    [Description("The top of the percentile's 95 % distribution-free interval: the duration at rank n·p + 1.96·√(n·p·(1−p)) + 1, at most the longest seen (with few samples no bound: read it with samples).")]
    public double UpperMilliseconds { get; init; }
}
