import UpstreamHTTP
import Foundation
import Testing

@testable import PiHoleSimulator

/// The new endpoints refuse and accept what a real FTL does.
@Suite("Simulator statistics, groups and actions behave like a real FTL v6")
struct SimulatorStatisticsTests {
    /// FTL's PUT replaces the whole row and creates unknown groups.
    @Test func groupPutReplacesTheWholeGroupAndCreatesUnknownOnes() async throws {
        try await withFixture { f in
            let (_, login) = try await directLogin(f.http, baseURL: f.simulator.baseURL, password: f.password)
            let sid = try #require(sessionID(in: login))
            let groups = f.simulator.baseURL + "/api/groups/"
            f.simulator.addGroup(name: "Kids", comment: "tablets", enabled: false)

            // No comment → erased; no enabled → enabled.
            let (status, body) = try await directRequest(f.http, .PUT, groups + "Kids", sid: sid, body: #"{"name":"Kids"}"#)
            #expect(status == 200)
            #expect(body.contains(#""processed":"#) && body.contains(#""took":"#) && body.contains(#""name":"Kids""#))
            #expect(f.simulator.group(named: "Kids")?.comment == nil)
            #expect(f.simulator.group(named: "Kids")?.enabled == true)

            // A different name renames; the answer lists the URI's (now gone) name.
            let (_, renamed) = try await directRequest(
                f.http, .PUT, groups + "Kids", sid: sid, body: #"{"name":"Children","comment":"c","enabled":false}"#)
            #expect(renamed.contains(#""groups":[]"#))
            #expect(f.simulator.group(named: "Kids") == nil)
            #expect(f.simulator.group(named: "Children")?.enabled == false)

            // A name in the body is an UPDATE: an unknown URI name is "success" that made nothing
            // (FTL 6.4.1). Without one it is an insert or replace, which makes it.
            let (unchanged, unchangedBody) = try await directRequest(
                f.http, .PUT, groups + "Absent", sid: sid, body: #"{"name":"Absent","enabled":true}"#)
            #expect(unchanged == 200 && unchangedBody.contains(#""groups":[]"#) && unchangedBody.contains(#""success":[{"item":"Absent"}]"#))
            #expect(f.simulator.group(named: "Absent") == nil)
            let (created, _) = try await directRequest(f.http, .PUT, groups + "New%20One", sid: sid, body: #"{"enabled":false}"#)
            #expect(created == 200)
            #expect(f.simulator.group(named: "New One")?.enabled == false)
            #expect(f.simulator.groupPutCount == 4)

            // POST creates: 201, and a name that exists is an error under `processed`, still 201.
            let (posted, postedBody) = try await directRequest(f.http, .POST, f.simulator.baseURL + "/api/groups", sid: sid, body: #"{"name":"Guests","comment":"c"}"#)
            #expect(posted == 201 && postedBody.contains(#""name":"Guests""#))
            #expect(f.simulator.group(named: "Guests")?.comment == "c")
            let (again, againBody) = try await directRequest(f.http, .POST, f.simulator.baseURL + "/api/groups", sid: sid, body: #"{"name":"Guests"}"#)
            #expect(again == 201 && againBody.contains("UNIQUE constraint failed"))
            #expect(f.simulator.groupsCreatedByPost == 1)

            // Bad JSON → 400; no name in the URI → 400 uri_error; an unknown name reads as an empty list.
            let (bad, badBody) = try await directRequest(f.http, .PUT, groups + "Kids", sid: sid, body: "{")
            #expect(bad == 400 && badBody.contains("bad_request"))
            let (noName, noNameBody) = try await directRequest(f.http, .PUT, groups, sid: sid, body: "{}")
            #expect(noName == 400 && noNameBody.contains("uri_error"))
            let (missing, missingBody) = try await directRequest(f.http, .GET, groups + "Nope", sid: sid)
            #expect(missing == 200 && missingBody.contains(#""groups":[]"#))
        }
    }

    @Test func queriesFiltersAndRefusesNonNumbers() async throws {
        try await withFixture { f in
            let (_, login) = try await directLogin(f.http, baseURL: f.simulator.baseURL, password: f.password)
            let sid = try #require(sessionID(in: login))
            let base = f.simulator.baseURL + "/api/queries"
            f.simulator.recordQueries([
                SimulatedQuery(time: Date(timeIntervalSince1970: 100), domain: "a.example", clientIP: "10.0.0.2", status: "FORWARDED"),
                SimulatedQuery(time: Date(timeIntervalSince1970: 200), domain: "b.example", clientIP: "10.0.1.2", status: "GRAVITY"),
                SimulatedQuery(time: Date(timeIntervalSince1970: 300), domain: "c.example", clientIP: "10.0.0.3", status: "CACHE"),
            ])
            let (_, all) = try await directRequest(f.http, .GET, base, sid: sid)
            #expect(all.contains(#""recordsTotal":3"#) && all.contains(#""recordsFiltered":3"#))
            #expect(all.range(of: "c.example")!.lowerBound < all.range(of: "a.example")!.lowerBound)

            let (_, wildcard) = try await directRequest(f.http, .GET, base + "?client_ip=10.0.0.*", sid: sid)
            #expect(wildcard.contains(#""recordsFiltered":2"#) && !wildcard.contains("b.example"))
            let (_, permitted) = try await directRequest(f.http, .GET, base + "?upstream=permitted&from=150", sid: sid)
            #expect(permitted.contains(#""recordsFiltered":1"#) && permitted.contains("c.example"))
            let (_, cache) = try await directRequest(f.http, .GET, base + "?upstream=cache", sid: sid)
            #expect(cache.contains(#""recordsFiltered":1"#) && cache.contains("c.example"))
            let (_, forwarded) = try await directRequest(f.http, .GET, base + "?upstream=1.1.1.1*", sid: sid)
            #expect(forwarded.contains(#""recordsFiltered":1"#) && forwarded.contains("a.example"))

            for parameter in ["from=x", "until=soon", "length=ten"] {
                let (status, body) = try await directRequest(f.http, .GET, base + "?" + parameter, sid: sid)
                #expect(status == 400 && body.contains("bad_request"), "\(parameter)")
            }
        }
    }

    @Test func newEndpointsNeedASessionAndUnknownOnesStay404() async throws {
        try await withFixture { f in
            let base = f.simulator.baseURL
            for (method, path) in [
                ("GET", "/api/stats/summary"), ("GET", "/api/queries"), ("GET", "/api/groups"),
                ("GET", "/api/auth/sessions"), ("GET", "/api/config/webserver/api/max_sessions"),
                ("GET", "/api/info/messages/count"), ("POST", "/api/action/gravity"),
                ("POST", "/api/action/restartdns"), ("POST", "/api/action/flush/logs"),
            ] {
                let (status, _) = try await directRequest(f.http, .init(rawValue: method), base + path)
                #expect(status == 401, "\(method) \(path)")
            }
            #expect(f.simulator.gravityRuns == 0)
            let (_, login) = try await directLogin(f.http, baseURL: base, password: f.password)
            let sid = try #require(sessionID(in: login))
            for (method, path) in [("GET", "/api/action/gravity"), ("POST", "/api/action/nonsense"), ("GET", "/api/stats/nonsense")] {
                let (status, _) = try await directRequest(f.http, .init(rawValue: method), base + path, sid: sid)
                #expect(status == 404, "\(method) \(path)")
            }
            let (config, configBody) = try await directRequest(
                f.http, .GET, base + "/api/config/webserver/api/max_sessions", sid: sid)
            #expect(config == 200 && configBody.contains(#"{"config":{"webserver":{"api":{"max_sessions":16}}}"#))
        }
    }

    @Test func queryLogIsBounded() {
        let simulator = PiHoleSimulator()
        let query = SimulatedQuery(time: Date(), domain: "a.example", clientIP: "10.0.0.2", status: "GRAVITY")
        simulator.recordQueries(Array(repeating: query, count: SimulatedQueryLog.capacity + 5))
        #expect(simulator.queryCount == SimulatedQueryLog.capacity)
    }
}
