using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

[TestFixture]
public sealed class UtilitiesTests
{
    [TestCase(0, "0 bytes")]
    [TestCase(1023, "1023 bytes")]
    [TestCase(1023.9, "1023 bytes")]
    [TestCase(1024, "1.000 KiB")]
    [TestCase(1536, "1.500 KiB")]
    [TestCase(1024 * 1024 - 1, "1023.999 KiB")]
    [TestCase(1024 * 1024, "1.000 MiB")]
    [TestCase(2.25 * 1024 * 1024, "2.250 MiB")]
    [TestCase(3.0 * 1024 * 1024 * 1024, "3.000 GiB")]
    [TestCase(1024.0 * 1024 * 1024 * 1024, "1.000 TiB")]
    [TestCase(5000.0 * 1024 * 1024 * 1024 * 1024, "5000.000 TiB")]
    [TestCase(-1536, "-1.500 KiB")]
    [TestCase(-10, "-10 bytes")]
    [TestCase(double.NaN, "NaN bytes")]
    public void GenerateDataSizeWritesBinaryUnitsWithThreeDecimals(double bytes, string expected)
        => Assert.That(Utilities.GenerateDataSize(bytes), Is.EqualTo(expected));

    [TestCase(0, "0 ns")]
    [TestCase(0.000350, "350 ns")]
    [TestCase(0.0125, "12.500 mcs")]
    [TestCase(3.25, "3.250 ms")]
    [TestCase(1500, "1.500 s")]
    [TestCase(125250, "2:05.250 m")]
    [TestCase(3723004, "1:02:03.004 h")]
    [TestCase(-1500, "-1.500 s")]
    [TestCase(double.PositiveInfinity, "Infinity ms")]
    public void GenerateTimePeriodWritesTheLargestFittingUnit(double milliseconds, string expected)
        => Assert.That(Utilities.GenerateTimePeriod(milliseconds), Is.EqualTo(expected));
}
