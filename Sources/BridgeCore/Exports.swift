// Every integration speaks JSONValue; importing BridgeCore is enough to use it.
@_exported import JSONDocument
