namespace NetCoreServer.Redis;

/// <summary>Who a backplane message is for.</summary>
internal enum BackplaneTarget : byte
{
    All = 0,
    Group = 1,
    Session = 2,
}
