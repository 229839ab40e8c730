import type { FeatureType, LogKind } from '../features/types.js';
import type { ClassName } from '../parse/records.js';

export interface AttentionNode {
  readonly variable: string;
  /** t of this variable's feature (the graph's feature type); NaN if untested. */
  readonly t: number;
  readonly significant: boolean;
  /** True for the performance metric P. */
  readonly metric: boolean;
}

export interface AttentionEdge {
  readonly from: string;
  readonly to: string;
  readonly weight: number;
  /** Happens-before: `from` strictly earlier than `to` in every instance where both occur. */
  readonly directed: boolean;
  /**
   * The tree split that learned this edge (the dependency-network edge of the
   * larger weight): the gate's statistic (c_j under the rank gate) and its
   * adjusted p. Absent for networks built without them.
   */
  readonly split?: { readonly statistic: number; readonly p: number };
}

/** A pruned maximum spanning tree around P (SPEC §5). */
export interface AttentionGraph {
  readonly kind: LogKind;
  /** The feature type scored. */
  readonly feature: FeatureType;
  /** All feature types that yielded this same graph (shown once). */
  readonly features: readonly FeatureType[];
  readonly className: ClassName | 'both';
  readonly score: number;
  readonly nodes: readonly AttentionNode[];
  readonly edges: readonly AttentionEdge[];
  /** Nodes of the pruned tree left out of the display by --max-nodes. */
  readonly omitted: number;
  /** Aliases of P in this feature type (SPEC §5): left out of the network, listed beside P. */
  readonly aliases: readonly string[];
}

export interface AttentionOptions {
  /** a in T̂^(2a)·ŵ^(2(1−a)); default 0.5. */
  readonly balance: number;
  readonly top: number;
  readonly maxNodes: number;
  readonly dnClass: ClassName | 'both';
}
