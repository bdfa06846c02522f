// ChildProcess lives in its own library (the demo starts mosquitto with it); tests that import
// MQTTTestSupport keep seeing it without a second import.
@_exported import ChildProcess
