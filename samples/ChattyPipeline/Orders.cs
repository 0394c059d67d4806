namespace ChattyPipeline;

internal sealed record OrderLine(int ProductId, int Quantity);

internal sealed record Order(long Id, int CustomerId, IReadOnlyList<OrderLine> Lines);

/// <summary>An order with the unit price of each line (in line order) and the customer's discount.</summary>
internal sealed record PricedOrder(Order Order, IReadOnlyList<decimal> UnitPrices, decimal Discount)
{
    /// <summary>What the customer pays: the lines at their unit prices, less the discount.</summary>
    public decimal Total => Order.Lines.Select((line, index) => line.Quantity * UnitPrices[index]).Sum() * (1 - Discount);
}

/// <summary>The orders the pipeline prices: the same sequence on every run, so results can be compared.</summary>
internal static class OrderBook
{
    public const int LinesPerOrder = 4;
    private const int Customers = 10;
    private const int Products = 500;

    public static Order Create(long id)
    {
        var lines = new OrderLine[LinesPerOrder];
        for (int line = 0; line < lines.Length; line++)
        {
            lines[line] = new OrderLine(ProductId: (int)(((id * 31) + (line * 7)) % Products), Quantity: 1 + (int)((id + line) % 5));
        }

        return new Order(id, CustomerId: (int)(id % Customers), lines);
    }
}
