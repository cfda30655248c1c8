// The unbounded queue between the generator and the workers. The generator
// hands over a whole round of requests under one lock; a worker takes ONE
// request at a time, so a slow request delays only itself: the requests
// behind it in time go to whichever worker is free next, as they would for
// a client with independent connections. (Taking several per lock would
// make the ones taken together wait behind the slow one: head-of-line
// blocking the store is not guilty of.) Wake-ups chain: the generator
// wakes one idle worker, and a worker that leaves requests behind wakes
// the next, so only as many workers wake as there is work for.
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
    // One worker; it wakes the next if it leaves work behind (Pop), so a
    // small batch costs one wake-up, not one per idle worker.
    if (wake) cv_.notify_one();
  }

  // Producer is done: consumers drain what is left, then Pop returns false.
  void Close() {
    {
      std::lock_guard<std::mutex> l(mu_);
      closed_ = true;
    }
    cv_.notify_all();
  }

  // Blocks until there is work and takes the oldest request. False when
  // closed and empty.
  bool Pop(Request* out) {
    std::unique_lock<std::mutex> l(mu_);
    while (queue_.empty() && !closed_) {
      waiting_++;
      cv_.wait(l);
      waiting_--;
    }
    if (queue_.empty()) return false;
    *out = queue_.front();
    queue_.pop_front();
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
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Request> queue_;
  int waiting_ = 0;
  bool closed_ = false;
  uint64_t max_depth_ = 0;
  std::atomic<uint64_t> depth_{0};
};

}  // namespace ycsb
