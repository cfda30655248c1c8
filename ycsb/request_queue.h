// The unbounded queue between the generator and the workers. Hand-off is
// batched both ways (one lock per generator wake-up, one per worker
// take), so its cost per request is a copy, not a lock. Wake-ups chain:
// the generator wakes one idle worker, and a worker that leaves requests
// behind wakes the next, so only as many workers wake as there is work for.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "core_workload.h"

namespace ycsb {

class RequestQueue {
 public:
  explicit RequestQueue(int consumers) : consumers_(std::max(consumers, 1)) {}

  void PushBatch(const std::vector<Request>& batch) {
    if (batch.empty()) return;
    bool wake;
    {
      std::lock_guard<std::mutex> l(mu_);
      queue_.insert(queue_.end(), batch.begin(), batch.end());
      depth_.store(queue_.size(), std::memory_order_relaxed);
      max_depth_ = std::max<uint64_t>(max_depth_, queue_.size());
      wake = waiting_ > 0;
    }
    // One worker; it wakes the next if it leaves work behind (PopBatch), so
    // a small batch costs one wake-up, not one per idle worker.
    if (wake) cv_.notify_one();
  }

  // Producer is done: consumers drain what is left, then PopBatch returns
  // false.
  void Close() {
    {
      std::lock_guard<std::mutex> l(mu_);
      closed_ = true;
    }
    cv_.notify_all();
  }

  // Blocks until there is work; takes a fair share (queue / consumers,
  // at most max_take) so that one worker does not hold requests another
  // idle worker could run. False when closed and empty.
  bool PopBatch(std::vector<Request>* out, size_t max_take) {
    out->clear();
    std::unique_lock<std::mutex> l(mu_);
    while (queue_.empty() && !closed_) {
      waiting_++;
      cv_.wait(l);
      waiting_--;
    }
    if (queue_.empty()) return false;
    size_t share = (queue_.size() + consumers_ - 1) / consumers_;
    size_t n = std::min(std::max<size_t>(share, 1), max_take);
    out->assign(queue_.begin(), queue_.begin() + n);
    queue_.erase(queue_.begin(), queue_.begin() + n);
    depth_.store(queue_.size(), std::memory_order_relaxed);
    bool pass_on = !queue_.empty() && waiting_ > 0;
    l.unlock();
    if (pass_on) cv_.notify_one();
    return true;
  }

  // Drops everything not yet taken; returns how many.
  uint64_t DiscardAll() {
    std::lock_guard<std::mutex> l(mu_);
    uint64_t n = queue_.size();
    queue_.clear();
    depth_.store(0, std::memory_order_relaxed);
    return n;
  }

  uint64_t depth() const { return depth_.load(std::memory_order_relaxed); }
  uint64_t max_depth() {
    std::lock_guard<std::mutex> l(mu_);
    return max_depth_;
  }

 private:
  const size_t consumers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Request> queue_;
  int waiting_ = 0;
  bool closed_ = false;
  uint64_t max_depth_ = 0;
  std::atomic<uint64_t> depth_{0};
};

}  // namespace ycsb
