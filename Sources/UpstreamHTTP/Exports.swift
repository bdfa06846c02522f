// A client is made with an `UpstreamTLS`: importing the client is enough to say how it trusts.
@_exported import UpstreamTrust
