# The trace variant: per tile, globaltimer at block start, at carry_of entry (aggregate known),
# after the look-back, and at the end, in scan_trace[tile * 4 ..]; the look-back's poll rounds
# and windows (tree: levels published) in lb_trace[tile * 2 ..]. Run from the copy's root.


def patch(path, pairs):
    s = open(path).read()
    for a, b in pairs:
        assert a in s, (path, a)
        s = s.replace(a, b, 1)
    open(path, 'w').write(s)


patch('policies/cuda_chained/scan_kernels.cuh', [
    ('namespace pscan::chained {\n', '''namespace pscan::chained {
__device__ unsigned long long* scan_trace = nullptr;
__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
'''),
    ('  if (threadIdx.x == 0) tile_id = state.draw_ticket(tiles);',
     '  const unsigned long long t_start = gtime(); unsigned long long t_agg = 0, t_prefix = 0;\n'
     '  if (threadIdx.x == 0) tile_id = state.draw_ticket(tiles);'),
    ('  auto carry_of = [&](const A& total) {\n    if (cuda::warp_id() == 0) {',
     '  auto carry_of = [&](const A& total) {\n    t_agg = gtime();\n    if (cuda::warp_id() == 0) {'),
    ('        carry_value[0] = c.value;\n      }',
     '        carry_value[0] = c.value;\n      }\n      t_prefix = gtime();'),
    ('  agent::template run<Exclusive>(first + offset, out + offset, valid, op, storage, carry_of);\n}',
     '''  agent::template run<Exclusive>(first + offset, out + offset, valid, op, storage, carry_of);
  if (threadIdx.x == 0 && scan_trace != nullptr) {
    unsigned long long* r = scan_trace + 4ull * tile;
    r[0] = t_start; r[1] = t_agg; r[2] = t_prefix; r[3] = gtime();
  }
}'''),
])
patch('policies/cuda_chained/tile_state.cuh', [
    ('namespace pscan::chained {\n',
     'namespace pscan::chained {\n__device__ unsigned long long* lb_trace = nullptr;\n'),
])
patch('policies/cuda_chained/lookback.cuh', [
    ('  for (long long newest = static_cast<long long>(tile) - 1;; newest -= window) {',
     '  unsigned long long polls = 0, windows = 0;\n'
     '  for (long long newest = static_cast<long long>(tile) - 1;; newest -= window) {\n    ++windows;'),
    ('    for (backoff poll_wait = wait;; poll_wait.pause()) {\n',
     '    for (backoff poll_wait = wait;; poll_wait.pause()) {\n      ++polls;\n'),
    ('    if (found) return prefix;',
     '    if (found) { if (lane == 0 && lb_trace) { lb_trace[2 * tile] = polls; '
     'lb_trace[2 * tile + 1] = windows; } return prefix; }'),
])
patch('policies/cuda_chained/lookback_tree.cuh', [
    ('  for (backoff poll_wait = wait;; poll_wait.pause()) {\n',
     '  unsigned long long polls = 0;\n  for (backoff poll_wait = wait;; poll_wait.pause()) {\n    ++polls;\n'),
    ('    if (levels_complete) break;',
     '    if (levels_complete) { if (lane == 0 && lb_trace) { lb_trace[2 * tile] = polls; '
     'lb_trace[2 * tile + 1] = published; } break; }'),
])
