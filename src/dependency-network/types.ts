import type { FeatureType, LogKind } from '../features/types.js';
import type { ClassName } from '../parse/records.js';
import type { SplitTest } from './cart.js';

/** An edge parent → child learned by the child's regression tree (SPEC §4). */
export interface DependencyEdge {
  /** Index into DependencyNetwork.variables. */
  readonly parent: number;
  readonly child: number;
  /** max over the child's split nodes on `parent` of (samples at that node / N_c), in (0, 1]. */
  readonly weight: number;
  /**
   * The gate's statistic and p at that split node (the one giving the
   * weight): c_j and its Šidák-adjusted p under the rank gate, F and its p
   * under the F gates (see cart.ts). Absent in networks built by hand.
   */
  readonly statistic?: number;
  readonly p?: number;
}

/** One dependency network: one log kind, one feature type, one class. */
export interface DependencyNetwork {
  readonly kind: LogKind;
  readonly feature: FeatureType;
  readonly className: ClassName | 'both';
  /** The variables that took part (columns missing in the whole class left out). */
  readonly variables: readonly string[];
  readonly edges: readonly DependencyEdge[];
  /** Instances used to learn it (after --dn-sample). */
  readonly instances: number;
  /** Their total weight (replication counts): N_c, the denominator of edge weights. */
  readonly weight: number;
  /** The minSamplesSplit the trees were grown with (weighted samples). */
  readonly minSplit: number;
}

export interface DependencyNetworkOptions {
  /** minSamplesSplit in weighted samples; default ⌈N_c/3⌉ (N_c = the class's total weight). */
  readonly minSplit?: number;
  /** The split gate's family-wise level per node (SPEC §4 α, `--split-alpha`). Default 0.05. */
  readonly splitAlpha: number;
  /** The gate (`--split-test`): 'rank' (default, SPEC §4), or the earlier F-test gates 'f-splits' / 'f-predictors'. */
  readonly splitTest?: SplitTest;
  /** At most this many instances per class (seeded sample). Default 100 000. */
  readonly sample: number;
  readonly seed: number;
  /**
   * Called every 1024 trees and once at the end with (trees grown, trees in
   * this network, "kind feature" of the network): for a progress line on long
   * runs. Must not throw.
   */
  readonly onProgress?: (done: number, total: number, network: string) => void;
}

export const DEFAULT_DEPENDENCY_NETWORK_OPTIONS: DependencyNetworkOptions = {
  splitAlpha: 0.05,
  sample: 100_000,
  seed: 1,
};
