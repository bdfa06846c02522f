import BenchmarkReport
import Testing

@Suite struct MeasurementBlocksTests {
    @Test(arguments: [(20..<2020, 10), (20..<225, 10), (20..<25, 10), (0..<7, 3)])
    func theBlocksCoverTheRoundsInOrderEachOnceAndAlike(rounds: Range<Int>, turns: Int) {
        let blocks = MeasurementBlocks.blocks(of: rounds, turns: turns)
        #expect(blocks.flatMap { Array($0) } == Array(rounds))
        #expect(blocks.count == min(turns, rounds.count))
        let sizes = blocks.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1, "\(sizes)")
    }
}
