import CascadeExampleSupport
import CascadeTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10)))
struct SnapshotBroadcastTests {
  @Test func anObserverGetsTheValueNowThenEveryChangeInOrder() async {
    let counter = SnapshotBroadcast(0)
    var values = counter.stream().makeAsyncIterator()
    #expect(await values.next() == 0)
    counter.update { $0 += 1 }
    counter.update { $0 += 1 }
    #expect(await values.next() == 1)
    #expect(await values.next() == 2)
  }

  @Test func aStreamThatEndsLeavesAndRunsItsOnEnd() async {
    let counter = SnapshotBroadcast(0)
    let ended = SnapshotBroadcast(false)
    let watcher = Task {
      for await value in counter.stream(onEnd: { ended.update { $0 = true } }) where value == 1 {
        return
      }
    }
    await pollUntil { counter.observerCount > 0 }
    counter.update { $0 = 1 }
    await watcher.value
    #expect(counter.observerCount == 0)
    #expect(ended.value)
  }

  /// Many threads change the value while observers join, read and are cancelled: nothing
  /// deadlocks, every observer sees the values rise (never an older one after a newer one),
  /// and one that stays to the end sees the last value.
  @Test func writersOnManyThreadsWhileObserversComeAndGo() async {
    let counter = SnapshotBroadcast(0, newestOnly: true)
    let writers = 4
    let writesEach = 2_000
    let total = writers * writesEach
    let stayer = Task {
      var last = -1
      for await value in counter.stream() {
        #expect(value > last)
        last = value
        if value == total { break }
      }
      return last
    }
    let writing = Task.detached {
      DispatchQueue.concurrentPerform(iterations: writers) { _ in
        for _ in 0..<writesEach { counter.update { $0 += 1 } }
      }
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<200 {
        group.addTask {
          let observer = Task {
            var last = -1
            for await value in counter.stream() {
              #expect(value > last)
              last = value
            }
          }
          await Task.yield()
          observer.cancel()
          await observer.value
        }
      }
    }
    await writing.value
    #expect(await stayer.value == total)
    #expect(counter.value == total)
    await pollUntil { counter.observerCount == 0 }
    #expect(counter.observerCount == 0)
  }
}
