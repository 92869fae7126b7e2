/* The cache lab, in the page: an exact fully associative LRU toy with the
 * same rules as model/lab.c (and `pascal lab`).
 *
 * A cache of `capacity` lines serves requests that cycle over `stride`
 * distinct addresses: request i (from 0) reads address i mod stride.  A hit
 * moves the line to the front of the recency list; a miss fills the address
 * at the front and, when the cache is full, evicts the least recently used
 * line (the back).  The lab starts empty with `start` (16) requests already
 * counted; reset returns there under the current capacity and stride;
 * changing the capacity or the stride replays the counted requests from an
 * empty cache, so the counters always describe one exact run.
 *
 * Not a GPU cache: no sectors, no associativity conflicts, no cache
 * operators, no hardware replacement policy. */
var PascalLab = (function () {
  'use strict';

  function Lab(limits) {
    this.limits = limits;
    this.capacity = limits.capacity;
    this.stride = limits.stride;
    this.replay(limits.start);
  }

  Lab.prototype.address = function (i) {
    return i % this.stride;
  };

  Lab.prototype.request = function () {
    var a = this.address(this.requests);
    var pos = this.lines.indexOf(a);
    if (pos >= 0) {
      this.hits++;
      this.last = 'hit';
      this.lines.splice(pos, 1);
    } else {
      this.misses++;
      this.last = 'miss';
      if (this.lines.length === this.capacity) this.lines.pop();
    }
    this.lines.unshift(a);
    this.lastAddress = a;
    this.requests++;
  };

  Lab.prototype.replay = function (n) {
    this.requests = this.hits = this.misses = 0;
    this.lines = [];
    this.last = 'none';
    this.lastAddress = -1;
    for (var i = 0; i < n; i++) this.request();
  };

  Lab.prototype.reset = function () {
    this.replay(this.limits.start);
  };

  /* Each setter returns null, or a message saying what was expected. */
  function integer(text, lo, hi) {
    var s = String(text).trim();
    if (!/^[0-9]+$/.test(s)) return null;
    var v = Number(s);
    return v >= lo && v <= hi ? v : null;
  }

  Lab.prototype.setCapacity = function (text) {
    var v = integer(text, 1, this.limits.max_capacity);
    if (v === null) return 'capacity: expected an integer 1..' + this.limits.max_capacity +
                           ', got "' + text + '"';
    this.capacity = v;
    this.replay(this.requests);
    return null;
  };

  Lab.prototype.setStride = function (text) {
    var v = integer(text, 1, this.limits.max_stride);
    if (v === null) return 'stride: expected an integer 1..' + this.limits.max_stride +
                           ', got "' + text + '"';
    this.stride = v;
    this.replay(this.requests);
    return null;
  };

  Lab.prototype.step = function (k) {
    if (k === undefined) k = 1;
    if (!(k >= 0) || this.requests + k > this.limits.max_requests)
      return 'step: at most ' + this.limits.max_requests + ' requests in all';
    for (var i = 0; i < k; i++) this.request();
    return null;
  };

  return { Lab: Lab };
})();
