// swift-tools-version:6.1
import PackageDescription

/// The executables link with the toolchain's lld rather than gold: lld can pack relative
/// relocations (RELR), which scripts/build-release asks for where the C library reads them.
let lld: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]

let package = Package(
    name: "home2mqtt",
    // Linux is what ships and what CI runs; macOS 15 (Mutex, task executors) only for building and
    // testing on a Mac.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "home2mqtt", targets: ["home2mqtt"]),
        .executable(name: "home2mqtt-demo", targets: ["home2mqtt-demo"]),
        .executable(name: "home2mqtt-bench", targets: ["home2mqtt-bench"]),
        .executable(name: "home2mqtt-fuzz", targets: ["home2mqtt-fuzz"]),
    ],
    dependencies: [
        // Without Hummingbird's default FullFoundation trait, whose date formatters in its form
        // coding would link the full Foundation and ICU's data into the binary.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // The C library, and a Swift MQTT client over it that knows nothing about the bridge.
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .target(name: "MQTT", dependencies: [
            "CMosquitto",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // libyaml, the configuration's YAML parser (Yams' Swift layer would link all of Foundation and ICU).
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),

        // Trimming, percent-encoding and fixed-point numbers without the full Foundation (and ICU).
        .target(name: "PlainText"),

        // JSON as a value, shared by the bridge and the simulators.
        .target(name: "JSONDocument"),

        // The bridge: configuration, topics, commands, discovery, the integration seam.
        .target(name: "BridgeCore", dependencies: [
            "MQTT", "JSONDocument", "BridgeRuntime", "UpstreamTrust", "CLibYAML", "PlainText",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // What the bridge runs on: its one event loop with Swift tasks on it, timers, time limits,
        // wake-ups, and its name and version.
        .target(name: "BridgeRuntime", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),

        // How an upstream's certificate is trusted as configured: system roots, a CA file, a
        // pinned fingerprint, or not at all.
        .target(name: "UpstreamTrust", dependencies: [.product(name: "NIOSSL", package: "swift-nio-ssl")]),

        // The upstreams' HTTP client: kept-alive connections, retries, limits, login backoff,
        // Retry-After, certificate probes.
        .target(name: "UpstreamHTTP", dependencies: [
            "BridgeRuntime", "UpstreamTrust",
            "PlainText",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOTLS", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),

        // UniFi Network's Integration API: the client, and an HTTPS simulator for tests and the demo.
        .target(name: "UniFiAPI", dependencies: [
            "BridgeRuntime", "UpstreamHTTP", "JSONDocument", "PlainText",
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "UniFiIntegration", dependencies: [
            "BridgeCore", "UniFiAPI", "UpstreamHTTP", "PlainText",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "UniFiSimulator", dependencies: [
            "JSONDocument", "SimulatorSupport", "TLSTestSupport", "PlainText",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Self-signed certificates made at test time with the openssl CLI (tests, simulators, demo).
        .target(name: "TLSTestSupport", dependencies: ["ChildProcess", "PlainText"]),

        // Pi-hole v6: the REST client, the integration, and a simulator for tests and the demo.
        .target(name: "PiHoleAPI", dependencies: [
            "BridgeRuntime", "UpstreamHTTP", "PlainText", "JSONDocument",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "PiHoleIntegration", dependencies: [
            "BridgeCore", "PiHoleAPI",
        ]),
        .target(name: "PiHoleSimulator", dependencies: [
            "JSONDocument", "SimulatorSupport", "PlainText",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Bella's Reef: the client of the core, temperature and smart-outlet services, and a simulator
        // of the three for tests and the demo.
        .target(name: "BellasReefAPI", dependencies: [
            "UpstreamHTTP", "PlainText", "JSONDocument",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "BellasReefSimulator", dependencies: [
            "JSONDocument", "SimulatorSupport", "PlainText",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The MQTT side: health, temperatures and outlets on topics, outlet commands, timed restores.
        .target(name: "BellasReefIntegration", dependencies: [
            "BridgeCore", "BellasReefAPI", "UpstreamHTTP", "PlainText",
        ]),

        // What the simulators share: a listener that can go down, come back and change its
        // certificate, the dropped-connection fault, and the requests they record for the tests.
        .target(name: "SimulatorSupport", dependencies: [
            "BridgeRuntime",
            "PlainText",
            "LoopbackSocket",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // posix_spawn with a clean signal state: the tests' brokers and the demo's mosquitto.
        .target(name: "ChildProcess"),
        // A loopback port held without listening: refused connections, and a port nothing else takes.
        .target(name: "LoopbackSocket"),

        // What both executables need to start a bridge: the configuration read and checked, the
        // integrations made, console output.
        .target(name: "BridgeComposition", dependencies: [
            "BridgeCore", "PiHoleIntegration", "UniFiIntegration", "BellasReefIntegration",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The bridge's own page (bridge.web): a small router on SwiftNIO's HTTP/1 server; the page's
        // HTML, style and script are files (Assets/) compiled into the binary: no web framework,
        // no resource bundle to install beside it.
        .target(name: "WebPage", dependencies: [
            "BridgeCore",
            "UpstreamHTTP",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], resources: ["page.html", "page.js", "page.css", "favicon.svg", "manifest.webmanifest"].map { .embedInCode("Assets/\($0)") }),

        // The bridge that ships: no simulator and no web framework in it (issue 10: the binary's size).
        .executableTarget(
            name: "home2mqtt",
            dependencies: [
                "BridgeComposition", "BridgeCore", "PiHoleIntegration", "UniFiIntegration", "MQTT",
                "UpstreamHTTP", "BellasReefIntegration", "PlainText", "WebPage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            linkerSettings: lld
        ),

        // `home2mqtt-demo`: the bridge against the simulators, with its own mosquitto (scripts/demo).
        .executableTarget(name: "home2mqtt-demo", dependencies: [
            "BridgeComposition", "BridgeCore", "MQTT", "ChildProcess", "PlainText", "BellasReefIntegration",
            "PiHoleSimulator", "UniFiSimulator", "BellasReefSimulator", "WebPage", "LoopbackSocket",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ], linkerSettings: lld),

        // Test support: a real mosquitto on a free port; a real bridge in-process.
        .target(name: "MQTTTestSupport", dependencies: ["MQTT", "ChildProcess", "LoopbackSocket"]),
        .target(name: "BridgeTestSupport", dependencies: [
            "BridgeCore", "MQTT", "MQTTTestSupport",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        .target(name: "UniFiTestSupport", dependencies: [
            "BridgeCore", "BridgeTestSupport", "MQTT", "MQTTTestSupport", "UniFiIntegration", "UniFiSimulator", "TLSTestSupport",
        ]),
        .target(name: "PiHoleTestSupport", dependencies: [
            "BridgeCore", "BridgeTestSupport", "MQTT", "MQTTTestSupport", "PiHoleIntegration", "PiHoleSimulator",
        ]),

        .target(name: "BellasReefTestSupport", dependencies: [
            "BridgeCore", "BridgeTestSupport", "MQTT", "MQTTTestSupport", "BellasReefIntegration", "BellasReefSimulator",
        ]),

        // Headless Chromium driven over WebDriver's HTTP protocol: the page's tests in a real browser.
        .target(name: "WebDriverTestSupport", dependencies: [
            "ChildProcess", "JSONDocument", "MQTTTestSupport", "UpstreamHTTP",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),

        // A broker and the three simulators at once, for tests of the real executable as a whole.
        .target(name: "AllUpstreamsTestSupport", dependencies: [
            "BridgeTestSupport", "MQTTTestSupport", "PiHoleSimulator", "PiHoleTestSupport", "UniFiTestSupport",
            "BellasReefSimulator", "BellasReefTestSupport", "UpstreamHTTP", "JSONDocument",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),

        // The benchmark (issue 10): mosquitto, the simulators and the bridge in one process, measured
        // beside the floor. Its own executable, so `swift test` never runs it; the statistics and the
        // report are pure values, tested without I/O.
        .target(name: "BenchmarkReport", dependencies: ["JSONDocument", "PlainText"]),
        .executableTarget(name: "home2mqtt-bench", dependencies: [
            "BenchmarkReport", "BridgeCore", "BridgeTestSupport", "MQTT", "MQTTTestSupport", "JSONDocument",
            "PiHoleIntegration", "PiHoleSimulator", "PiHoleTestSupport", "UniFiIntegration", "UniFiSimulator", "UniFiTestSupport",
            "BellasReefIntegration", "BellasReefSimulator", "BellasReefTestSupport", "SimulatorSupport", "UpstreamHTTP", "BridgeRuntime",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ], path: "Sources/Benchmark"),
        .testTarget(name: "BenchmarkTests", dependencies: ["BenchmarkReport"]),

        // libFuzzer targets over everything that reads upstream or MQTT input (scripts/fuzz builds
        // them with -sanitize=fuzzer,address); without FUZZING it replays inputs from files.
        .executableTarget(name: "home2mqtt-fuzz", dependencies: [
            "JSONDocument", "MQTT", "BridgeCore", "PiHoleAPI", "UniFiAPI", "BellasReefAPI",
            "PiHoleIntegration", "UniFiIntegration", "BellasReefIntegration",
        ], path: "Sources/Fuzz", linkerSettings: lld),
        .testTarget(name: "SimulatorSupportTests", dependencies: [
            "SimulatorSupport", "UpstreamHTTP", "BridgeRuntime",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "PlainTextTests", dependencies: ["PlainText"]),
        .testTarget(name: "BridgeRuntimeTests", dependencies: ["BridgeRuntime"]),
        // nst/JSONTestSuite's cases are copied in, so that the repository stands alone.
        // The memory bound is measured in the fuzz targets' replay, a child process.
        .testTarget(
            name: "JSONDocumentTests", dependencies: ["JSONDocument", "ChildProcess", "home2mqtt-fuzz"],
            resources: [.copy("JSONTestSuite")]),

        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "MQTTTestSupport", "LoopbackSocket"]),
        .testTarget(name: "BridgeCoreTests", dependencies: [
            "BridgeCore", "MQTT", "MQTTTestSupport", "BridgeTestSupport", "UpstreamHTTP", .product(name: "CoreMetrics", package: "swift-metrics"),
        ]),
        .testTarget(name: "Home2MQTTTests", dependencies: [
            "home2mqtt", "MQTTTestSupport", "BridgeTestSupport", "BridgeCore", "PiHoleIntegration", "PiHoleSimulator",
            "PiHoleTestSupport", "UniFiSimulator", "UniFiTestSupport", "UniFiIntegration", "BellasReefSimulator",
            "BellasReefTestSupport", "UpstreamHTTP", "AllUpstreamsTestSupport", "JSONDocument", "SimulatorSupport",
        ]),
        .testTarget(name: "PiHoleAPITests", dependencies: [
            "PiHoleAPI", "BridgeRuntime", "PiHoleSimulator", "UpstreamHTTP", "BridgeTestSupport", "JSONDocument", "LoopbackSocket", "SimulatorSupport",
        ]),
        .testTarget(name: "BellasReefAPITests", dependencies: [
            "BellasReefAPI", "BellasReefSimulator", "BridgeRuntime", "UpstreamHTTP", "JSONDocument", .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "BellasReefIntegrationTests", dependencies: [
            "BellasReefIntegration", "BellasReefSimulator", "BellasReefTestSupport", "BridgeCore", "MQTT",
            "MQTTTestSupport", "BridgeTestSupport",
        ]),
        .testTarget(name: "UpstreamHTTPTests", dependencies: [
            "UpstreamHTTP", "BridgeRuntime", "TLSTestSupport", "MQTTTestSupport", "SimulatorSupport",
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        .testTarget(name: "ReliabilityTests", dependencies: [
            "BridgeCore", "BridgeTestSupport", "MQTTTestSupport", "SimulatorSupport", "TLSTestSupport",
            "PiHoleIntegration", "PiHoleSimulator", "PiHoleTestSupport",
            "UniFiIntegration", "UniFiSimulator", "UniFiTestSupport",
            "BellasReefIntegration", "BellasReefSimulator", "BellasReefTestSupport",
        ]),
        .testTarget(name: "UniFiIntegrationTests", dependencies: [
            "UniFiIntegration", "UniFiSimulator", "UniFiTestSupport", "BridgeCore", "BridgeTestSupport", "MQTT", "MQTTTestSupport",
            "UpstreamHTTP",
        ]),
        // A real Home Assistant (scripts/install-home-assistant) against the real executable and
        // the three simulators; scripts/test runs it in a pass of its own.
        .testTarget(name: "HomeAssistantTests", dependencies: [
            "AllUpstreamsTestSupport", "BridgeTestSupport", "MQTTTestSupport", "JSONDocument",
            "PiHoleSimulator", "UniFiSimulator", "UniFiTestSupport", "BellasReefSimulator",
        ], exclude: ["home_assistant_client.py"]),
        // The page (bridge.web): its parts alone, and the real executable with its HTTP requests.
        .testTarget(name: "WebPageTests", dependencies: [
            "WebPage", "BridgeCore", "MQTT", "AllUpstreamsTestSupport", "BridgeTestSupport", "MQTTTestSupport", "PiHoleSimulator",
            "PiHoleTestSupport", "UpstreamHTTP",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        // The page in headless Chromium against the real executable and the three simulators;
        // scripts/test runs it in a pass of its own (a browser takes a core while it starts).
        .testTarget(name: "WebPageBrowserTests", dependencies: [
            "WebDriverTestSupport", "AllUpstreamsTestSupport", "BridgeTestSupport", "MQTTTestSupport", "PiHoleSimulator",
            "PiHoleTestSupport", "BellasReefSimulator", "UniFiTestSupport", "UpstreamHTTP", "JSONDocument",
        ]),
        .testTarget(name: "UniFiAPITests", dependencies: [
            "UniFiAPI", "UniFiSimulator", "BridgeRuntime", "UpstreamHTTP", "TLSTestSupport", "JSONDocument",
        ]),
        .testTarget(name: "PiHoleIntegrationTests", dependencies: [
            "PiHoleIntegration", "PiHoleAPI", "PiHoleSimulator", "BridgeCore", "MQTT", "MQTTTestSupport", "BridgeTestSupport",
            "PiHoleTestSupport", "UpstreamHTTP",
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
    ]
)

// scripts/fuzz sets FUZZ_INSTRUMENT=1: the project's own modules get libFuzzer's coverage and
// AddressSanitizer, the fuzz executable libFuzzer's driver. The dependencies (SwiftNIO, BoringSSL,
// …) keep the debug build's flags, so a fuzz build in the debug build's folder compiles them once
// for both (docs/reliability.md, "Where CI's time goes").
if Context.environment["FUZZ_INSTRUMENT"] == "1" {
    let sanitizers = "-sanitize=fuzzer,address"
    for target in package.targets where target.type == .regular || target.type == .executable {
        var settings = target.swiftSettings ?? []
        settings.append(.unsafeFlags([sanitizers]))
        if target.name == "home2mqtt-fuzz" { settings.append(.define("FUZZING")) }
        target.swiftSettings = settings
    }
    package.targets.first { $0.name == "home2mqtt-fuzz" }?.linkerSettings = lld + [.unsafeFlags([sanitizers])]
}
