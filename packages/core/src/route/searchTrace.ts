/**
 * The trace of a failed connector search (route/connectSearch.ts `searchConnector`'s `record`), for
 * `replaySearch`: a later search between the same poses with shots at more expansions.
 */
import type { Region } from '../geometry/region.js';

/**
 * A failed search as it ran (`searchConnector`'s `record`): its expansions in order (pose, heuristic distance,
 * the expansion that made it), the heap pops before each, and the geometric work (`Region.work`) each one's shot
 * (NaN where none was tried) and each one's primitives counted. Nothing in the order of expansions depends on
 * the shots, so a search between the same poses in the same region with the same limits but shots at more
 * expansions (`shotEveryExpansions`) expands the same nodes in the same order until a shot succeeds:
 * `replaySearch` tries only the shots this one did not, and counts the rest of the work as recorded.
 */
export interface SearchTrace {
  x: Float64Array;
  y: Float64Array;
  h: Float64Array;
  d: Float64Array;
  /** The expansion whose primitive reached each one (−1: the start). */
  parent: Int32Array;
  pops: Int32Array;
  shotWork: Float64Array;
  expandWork: Float64Array;
  /** Pops in all. */
  endPops: number;
  /** Within this heuristic distance of the goal a shot is tried at every expansion. */
  near: number;
}

/** Notes what a search does, expansion by expansion, for its `SearchTrace`. */
export class TraceRecorder {
  private ids: number[] = [];
  private pops: number[] = [];
  private shotWork: number[] = [];
  private expandWork: number[] = [];
  private mark = 0;
  constructor(private region: Region) {}
  /** Node `id` is expanded, at pop `pop`. */
  expanding(id: number, pop: number): void {
    this.close();
    this.ids.push(id);
    this.pops.push(pop);
    this.shotWork.push(NaN);
    this.mark = this.region.work;
  }
  /** Its shot was tried (and failed). */
  shotTried(): void {
    this.shotWork[this.shotWork.length - 1] = this.region.work - this.mark;
    this.mark = this.region.work;
  }
  private close(): void {
    if (this.ids.length > this.expandWork.length) this.expandWork.push(this.region.work - this.mark);
  }
  trace(
    nodes: { X: number[]; Y: number[]; H: number[]; D: number[]; parent: number[] },
    endPops: number,
    near: number,
  ): SearchTrace {
    this.close();
    const n = this.ids.length;
    const index = new Int32Array(nodes.X.length);
    const t: SearchTrace = {
      x: new Float64Array(n),
      y: new Float64Array(n),
      h: new Float64Array(n),
      d: new Float64Array(n),
      parent: new Int32Array(n),
      pops: Int32Array.from(this.pops),
      shotWork: Float64Array.from(this.shotWork),
      expandWork: Float64Array.from(this.expandWork),
      endPops,
      near,
    };
    for (let e = 0; e < n; e++) {
      const id = this.ids[e];
      index[id] = e;
      t.x[e] = nodes.X[id];
      t.y[e] = nodes.Y[id];
      t.h[e] = nodes.H[id];
      t.d[e] = nodes.D[id];
      t.parent[e] = nodes.parent[id] < 0 ? -1 : index[nodes.parent[id]];
    }
    return t;
  }
}
