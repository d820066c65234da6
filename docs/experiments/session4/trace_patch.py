# The trace variant (warp-specialized kernel, the tree as of session 5): per tile, globaltimer at
# block start, at carry_of entry (aggregate known), when the look-back warp has the carry, and at
# the end; written to scan_trace[tile * 4 ..] when set. sub() edits the file last opened into s.
p = 'policies/cuda_chained/scan_kernels.cuh'
s = open(p).read()
def sub(a, b):
    global s
    assert a in s, a
    s = s.replace(a, b, 1)
sub('namespace pscan::chained {\n', '''namespace pscan::chained {
__device__ unsigned long long* scan_trace = nullptr;
__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
''')
sub('  if (threadIdx.x == 0) tile_id = state.draw_ticket(tiles);',
    '  const unsigned long long t_start = gtime(); unsigned long long t_agg = 0;\n  __shared__ unsigned long long t_prefix;\n  if (threadIdx.x == 0) tile_id = state.draw_ticket(tiles);')
sub("""    if (cuda::lane_id() == 0) {
      carry_has = c.has;""", """    if (cuda::lane_id() == 0) {
      t_prefix = gtime();
      carry_has = c.has;""")
sub('  auto carry_of = [&](const A& total) {\n', '  auto carry_of = [&](const A& total) {\n    t_agg = gtime();\n')
sub('''  block::tile::template run<Exclusive>(first + offset, out + offset, valid, op, storage, carry_of);
}''', '''  block::tile::template run<Exclusive>(first + offset, out + offset, valid, op, storage, carry_of);
  if (threadIdx.x == 0 && scan_trace != nullptr) {
    unsigned long long* r = scan_trace + 4ull * tile;
    r[0] = t_start; r[1] = t_agg; r[2] = t_prefix; r[3] = gtime();
  }
}''')
open(p, 'w').write(s)
# Poll rounds and windows per tile: lb_trace[2 * tile] = polls, [2 * tile + 1] = windows.
p = 'policies/cuda_chained/tile_state.cuh'
s = open(p).read()
s = s.replace('namespace pscan::chained {\n', 'namespace pscan::chained {\n__device__ unsigned long long* lb_trace = nullptr;\n', 1)
open(p, 'w').write(s)
p = 'policies/cuda_chained/lookback.cuh'
s = open(p).read()
sub('  for (long long newest = static_cast<long long>(tile) - 1;; newest -= window) {',
    '  unsigned long long polls = 0, windows = 0;\n  for (long long newest = static_cast<long long>(tile) - 1;; newest -= window) {\n    ++windows;')
sub('    for (backoff poll_wait = wait;; poll_wait.pause()) {\n', '    for (backoff poll_wait = wait;; poll_wait.pause()) {\n      ++polls;\n')
sub('    if (found) return prefix;', '    if (found) { if (lane == 0 && lb_trace) { lb_trace[2 * tile] = polls; lb_trace[2 * tile + 1] = windows; } return prefix; }')
open(p, 'w').write(s)
p = 'policies/cuda_chained/lookback_tree.cuh'
s = open(p).read()
sub('  for (backoff poll_wait = wait;; poll_wait.pause()) {\n', '  unsigned long long polls = 0;\n  for (backoff poll_wait = wait;; poll_wait.pause()) {\n    ++polls;\n')
sub('    if (complete == all_levels) break;', '    if (complete == all_levels) { if (lane == 0 && lb_trace) { lb_trace[2 * tile] = polls; lb_trace[2 * tile + 1] = published; } break; }')
open(p, 'w').write(s)
