import type { Tree } from '../trainers/tree';
import { ML_DOMAIN, attr, node, type Node } from './builder';

/**
 * Encodes trees as one ai.onnx.ml TreeEnsembleRegressor (opset 3) node. Each split is BRANCH_LEQ
 * (true = left) on the tree's float32 threshold, and nodes_missing_value_tracks_true carries the learned
 * NaN direction, so onnxruntime follows exactly the trainer's path (as skl2onnx encodes HistGradientBoosting).
 */
export function treeEnsembleNode(
  trees: readonly Tree[],
  aggregate: 'SUM' | 'AVERAGE',
  baseValue: number,
  input: string,
  output: string,
): Node {
  const nodesTree: number[] = [];
  const nodesId: number[] = [];
  const nodesFeature: number[] = [];
  const nodesMode: string[] = [];
  const nodesValue: number[] = [];
  const nodesTrue: number[] = [];
  const nodesFalse: number[] = [];
  const nodesMissingTrue: number[] = [];
  const targetTree: number[] = [];
  const targetNode: number[] = [];
  const targetWeight: number[] = [];
  trees.forEach((tree, t) => {
    for (let id = 0; id < tree.feature.length; id++) {
      const isLeaf = tree.feature[id] < 0;
      nodesTree.push(t);
      nodesId.push(id);
      nodesFeature.push(isLeaf ? 0 : tree.feature[id]);
      nodesMode.push(isLeaf ? 'LEAF' : 'BRANCH_LEQ');
      nodesValue.push(isLeaf ? 0 : tree.threshold[id]);
      nodesTrue.push(isLeaf ? 0 : tree.left[id]);
      nodesFalse.push(isLeaf ? 0 : tree.right[id]);
      nodesMissingTrue.push(isLeaf ? 0 : tree.missingGoLeft[id]);
      if (isLeaf) {
        targetTree.push(t);
        targetNode.push(id);
        targetWeight.push(tree.value[id]);
      }
    }
  });
  return node(
    'TreeEnsembleRegressor',
    [input],
    [output],
    [
      attr.int('n_targets', 1),
      attr.string('aggregate_function', aggregate),
      attr.floats('base_values', [baseValue]),
      attr.string('post_transform', 'NONE'),
      attr.ints('nodes_treeids', nodesTree),
      attr.ints('nodes_nodeids', nodesId),
      attr.ints('nodes_featureids', nodesFeature),
      attr.strings('nodes_modes', nodesMode),
      attr.floats('nodes_values', nodesValue),
      attr.ints('nodes_truenodeids', nodesTrue),
      attr.ints('nodes_falsenodeids', nodesFalse),
      attr.ints('nodes_missing_value_tracks_true', nodesMissingTrue),
      attr.ints('target_treeids', targetTree),
      attr.ints('target_nodeids', targetNode),
      attr.ints('target_ids', new Array<number>(targetTree.length).fill(0)),
      attr.floats('target_weights', targetWeight),
    ],
    ML_DOMAIN,
  );
}
