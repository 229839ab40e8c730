import type { FeatureType, LogKind } from '../features/types.js';
import type { ClassName } from '../parse/records.js';
import type { SplitCorrection } from './cart.js';

/** An edge parent → child learned by the child's regression tree (SPEC §4). */
export interface DependencyEdge {
  /** Index into DependencyNetwork.variables. */
  readonly parent: number;
  readonly child: number;
  /** max over the child's split nodes on `parent` of (samples at that node / N_c), in (0, 1]. */
  readonly weight: number;
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
  /** Split gate: F-test p < splitAlpha / (the divisor chosen by splitCorrection). Default 0.05. */
  readonly splitAlpha: number;
  /**
   * The gate's Bonferroni divisor: 'splits' (default) = the candidate splits
   * examined at the node; 'predictors' = the candidate predictors (SPEC §4's
   * wording, which lets about half of pure-noise nodes split: see cart.ts).
   */
  readonly splitCorrection?: SplitCorrection;
  /** At most this many instances per class (seeded sample). Default 100 000. */
  readonly sample: number;
  readonly seed: number;
}

export const DEFAULT_DEPENDENCY_NETWORK_OPTIONS: DependencyNetworkOptions = {
  splitAlpha: 0.05,
  sample: 100_000,
  seed: 1,
};
