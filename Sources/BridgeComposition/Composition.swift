import BellasReefIntegration
import BridgeCore
import PiHoleIntegration
import UniFiIntegration

/// Every integration the bridge knows. Adding one is one line here, and its own folder.
let integrationFactories: [any IntegrationFactory] = [
    PiHoleIntegrationFactory(),
    UniFiIntegrationFactory(),
    ReefIntegrationFactory(),
]
