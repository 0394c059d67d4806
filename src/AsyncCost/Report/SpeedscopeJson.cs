using System.Text;
using System.Text.Json;

namespace AsyncCost.Report;

/// <summary>
/// A <see cref="StackProfile"/> in speedscope's file format (https://www.speedscope.app/file-format-schema.json), as
/// 'dotnet-trace convert --format speedscope' writes one: shared frames, and one "sampled" profile per thread whose
/// samples each weigh the profiler's interval, in milliseconds. The profiles come in the profile's order, the busiest
/// thread first, which speedscope opens on.
/// </summary>
public static class SpeedscopeJson
{
    /// <summary>The schema the file names (speedscope checks a file against it).</summary>
    public const string Schema = "https://www.speedscope.app/file-format-schema.json";

    /// <summary>The profile as one speedscope JSON document.</summary>
    /// <param name="profile">The stacks.</param>
    /// <param name="name">What speedscope shows as the file's name (the trace's, say).</param>
    public static string Serialize(StackProfile profile, string name)
    {
        ArgumentNullException.ThrowIfNull(profile);
        using var stream = new MemoryStream();
        using (var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = false }))
        {
            json.WriteStartObject();
            json.WriteString("$schema", Schema);
            json.WriteString("name", name);
            json.WriteString("exporter", "dotnet-asynccost");
            json.WriteNumber("activeProfileIndex", 0);
            json.WriteStartObject("shared");
            json.WriteStartArray("frames");
            foreach (var frame in profile.Frames)
            {
                json.WriteStartObject();
                json.WriteString("name", frame);
                json.WriteEndObject();
            }
            json.WriteEndArray();
            json.WriteEndObject();
            json.WriteStartArray("profiles");
            foreach (var thread in profile.Threads)
            {
                json.WriteStartObject();
                json.WriteString("type", "sampled");
                json.WriteString("name", thread.Name.Length > 0 ? thread.Name : $"Thread {thread.ThreadId}");
                json.WriteString("unit", "milliseconds");
                json.WriteNumber("startValue", 0);
                json.WriteNumber("endValue", thread.Samples.Count * profile.IntervalMs);
                json.WriteStartArray("samples");
                foreach (var stack in thread.Samples)
                {
                    json.WriteStartArray();
                    foreach (var frame in stack)
                    {
                        json.WriteNumberValue(frame);
                    }
                    json.WriteEndArray();
                }
                json.WriteEndArray();
                json.WriteStartArray("weights");
                for (var i = 0; i < thread.Samples.Count; i++)
                {
                    json.WriteNumberValue(profile.IntervalMs);
                }
                json.WriteEndArray();
                json.WriteEndObject();
            }
            json.WriteEndArray();
            json.WriteEndObject();
        }
        return Encoding.UTF8.GetString(stream.ToArray());
    }
}
