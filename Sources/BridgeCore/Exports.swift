// Every integration speaks JSONValue; importing BridgeCore is enough to use it.
@_exported import JSONDocument
// The bridge's time limits and the upstream clients' are one function; it lives with the clients,
// and so does its sibling that notices a slow operation without ending it.
@_exported import func UpstreamHTTP.withTimeLimit
@_exported import func UpstreamHTTP.withSlowNotice
