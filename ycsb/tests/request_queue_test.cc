// The generator -> worker queue: every request is taken exactly once, one
// at a time, oldest first; Close drains; DiscardAll drops.
#include "request_queue.h"

#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace ycsb {
namespace {

std::vector<Request> Numbered(uint64_t from, uint64_t n) {
  std::vector<Request> v(n);
  for (uint64_t i = 0; i < n; i++) {
    v[i].key_number = from + i;
    v[i].intended_ns = 0;
    v[i].scan_length = 0;
    v[i].op = OpType::kRead;
  }
  return v;
}

TEST(RequestQueue, OneRequestPerTakeInOrder) {
  RequestQueue q;
  q.PushBatch(Numbered(0, 40));
  EXPECT_EQ(q.depth(), 40u);
  Request r;
  ASSERT_TRUE(q.Pop(&r));
  EXPECT_EQ(r.key_number, 0u);
  ASSERT_TRUE(q.Pop(&r));
  EXPECT_EQ(r.key_number, 1u);
  EXPECT_EQ(q.depth(), 38u);  // one per take, however deep the queue
  EXPECT_EQ(q.max_depth(), 40u);
  EXPECT_EQ(q.DiscardAll(), 38u);
  EXPECT_EQ(q.depth(), 0u);
  q.Close();
  EXPECT_FALSE(q.Pop(&r));
}

TEST(RequestQueue, EveryRequestTakenOnceByConcurrentWorkers) {
  const int kWorkers = 4;
  const uint64_t kBatches = 2000, kPerBatch = 7;
  RequestQueue q;
  std::vector<std::atomic<int>> seen(kBatches * kPerBatch);
  for (auto& s : seen) s.store(0);
  std::vector<std::thread> workers;
  for (int w = 0; w < kWorkers; w++) {
    workers.emplace_back([&] {
      Request r;
      uint64_t prev = 0;
      bool first = true;
      while (q.Pop(&r)) {
        seen[r.key_number]++;
        // FIFO: one worker sees ascending numbers (others take the gaps).
        if (!first) {
          EXPECT_GT(r.key_number, prev);
        }
        prev = r.key_number;
        first = false;
      }
    });
  }
  for (uint64_t b = 0; b < kBatches; b++) {
    q.PushBatch(Numbered(b * kPerBatch, kPerBatch));
    if (b % 100 == 0) std::this_thread::yield();
  }
  q.Close();  // workers drain what is left, then stop
  for (auto& t : workers) t.join();
  for (uint64_t i = 0; i < seen.size(); i++) ASSERT_EQ(seen[i].load(), 1) << i;
}

}  // namespace
}  // namespace ycsb
