"""The planner's handlers, one module per family of intents: train (memory, time), infer (memory, serving,
speed), money (price, cost), facts (published runs, recommendations, comparisons, specs, fact checks, explanations).
Each imports only assistant.context below it, never the planner."""
