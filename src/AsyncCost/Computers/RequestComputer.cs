using System.Globalization;

namespace AsyncCost.Computers;

/// <summary>
/// The requests an ASP.NET Core process served while a pass recorded, from the events Kestrel already publishes
/// (Microsoft-AspNetCore-Server-Kestrel RequestStart and RequestStop, each with the connection id, the request id, the HTTP
/// version, the path and the method): a request completed is a RequestStop, timed when its RequestStart (matched by
/// connection and request id, no activity ids) was in the same stream. Per endpoint: the method and the path with its
/// id-like segments collapsed to "{id}" (<see cref="Endpoint"/>). A pass that knows no operations otherwise counts its
/// completed requests as its operations.
/// </summary>
internal sealed class RequestComputer
{
    /// <summary>Requests in flight followed at once; beyond them a start is not timed (its stop still counts).</summary>
    public const int MaxTrackedRequests = 100_000;

    /// <summary>Endpoints told apart; requests to any further one count under <see cref="OtherEndpoints"/>.</summary>
    public const int MaxEndpoints = 100;

    /// <summary>Where requests beyond <see cref="MaxEndpoints"/> endpoints count.</summary>
    public const string OtherEndpoints = "(other endpoints)";

    /// <summary>What stands for an id-like path segment.</summary>
    public const string IdSegment = "{id}";

    private readonly Dictionary<(string Connection, string Request), double> _started = [];
    private readonly Dictionary<string, EndpointRequests> _endpoints = new(StringComparer.Ordinal);

    /// <summary>RequestStart events read.</summary>
    public long Started { get; private set; }

    /// <summary>RequestStop events read: the requests completed while the stream recorded.</summary>
    public long Completed { get; private set; }

    /// <summary>Requests started in the stream and not completed by its end.</summary>
    public long Pending => _started.Count;

    /// <summary>Starts not followed because <see cref="MaxTrackedRequests"/> were in flight.</summary>
    public long Untracked { get; private set; }

    /// <summary>The endpoints, most requests first.</summary>
    public IReadOnlyList<EndpointRequests> Endpoints => [.. _endpoints.Values.OrderByDescending(e => e.Completed).ThenBy(e => e.Endpoint, StringComparer.Ordinal)];

    public void OnRequestStart(string? connectionId, string? requestId, double timestampMs)
    {
        Started++;
        if (_started.Count >= MaxTrackedRequests)
        {
            Untracked++;
            return;
        }
        _started[(connectionId ?? "", requestId ?? "")] = timestampMs;
    }

    public void OnRequestStop(string? connectionId, string? requestId, string? method, string? path, double timestampMs)
    {
        Completed++;
        var requests = EndpointOf(Endpoint(method, path));
        requests.Completed++;
        if (_started.Remove((connectionId ?? "", requestId ?? ""), out var startMs))
        {
            requests.Durations.Add(Math.Max(timestampMs - startMs, 0));
        }
    }

    /// <summary>Adds another stream's requests (a later slice or trace file of the same pass); requests in flight at a
    /// stream's end are not carried over (their stop, in the next stream, counts untimed).</summary>
    public void Add(RequestComputer other)
    {
        ArgumentNullException.ThrowIfNull(other);
        Started += other.Started;
        Completed += other.Completed;
        Untracked += other.Untracked + other.Pending;
        foreach (var theirs in other._endpoints.Values)
        {
            var ours = EndpointOf(theirs.Endpoint);
            ours.Completed += theirs.Completed;
            ours.Durations.Add(theirs.Durations);
        }
    }

    private EndpointRequests EndpointOf(string endpoint)
    {
        if (_endpoints.TryGetValue(endpoint, out var requests))
        {
            return requests;
        }
        if (_endpoints.Count >= MaxEndpoints)
        {
            endpoint = OtherEndpoints;
            if (_endpoints.TryGetValue(endpoint, out requests))
            {
                return requests;
            }
        }
        _endpoints.Add(endpoint, requests = new EndpointRequests(endpoint));
        return requests;
    }

    /// <summary>
    /// A request's endpoint: its method, a space, and its path (the query left out) with each id-like segment as "{id}":
    /// a segment of digits alone, a GUID, or one of 16 or more hex digits with a digit among them ("GET /checkout/{id}",
    /// "GET /orders/{id}/lines"). Names stay as they are ("GET /checkout/summary").
    /// </summary>
    public static string Endpoint(string? method, string? path)
    {
        var route = path ?? "";
        var end = route.IndexOfAny(['?', '#']);
        if (end >= 0)
        {
            route = route[..end];
        }
        var segments = route.Split('/').Select(s => IsId(s) ? IdSegment : s);
        route = string.Join('/', segments);
        return $"{(string.IsNullOrEmpty(method) ? "?" : method)} {(route.StartsWith('/') ? route : "/" + route)}";
    }

    private static bool IsId(string segment) =>
        segment.Length > 0 && (segment.All(char.IsAsciiDigit)
            || Guid.TryParse(segment, CultureInfo.InvariantCulture, out _)
            || (segment.Length >= 16 && segment.All(char.IsAsciiHexDigit) && segment.Any(char.IsAsciiDigit)));
}

/// <summary>The requests of one endpoint: how many completed, and the durations of those timed.</summary>
internal sealed class EndpointRequests(string endpoint)
{
    public string Endpoint { get; } = endpoint;

    public long Completed { get; set; }

    public CallDurations Durations { get; } = new(keepDistribution: true);
}
