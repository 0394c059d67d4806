// AC0004 false-positive shapes: awaits already configured, where the configuration is not on the await itself.
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace FalsePositiveShapes;

public static class ConfigureAwaitShapes
{
    // The async stream was configured into a local before the await foreach.
    public static async Task<int> CountAsync(IAsyncEnumerable<int> items, CancellationToken cancellationToken)
    {
        var count = 0;
        var configured = items.WithCancellation(cancellationToken).ConfigureAwait(false);
        await foreach (var item in configured)
        {
            count += item;
        }
        return count;
    }
}
