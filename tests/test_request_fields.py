"""Every input a person can state reaches a tool: for each Request field, a question that states it makes a
different tool call than the same question without it. A new Request field fails this test until it is covered."""
from __future__ import annotations

import pytest

from assistant.request import META_FIELDS, Request
from assistant.service import ask

# field -> (question without it, the same question stating it)
PAIRS: dict[str, tuple[str, str]] = {
    "pipeline_parallel": ("Full fine-tune of Qwen2.5-72B on 64 H800 with Megatron, TP=8: memory per GPU?",
                          "Full fine-tune of Qwen2.5-72B on 64 H800 with Megatron, TP=8, PP=4: memory per GPU?"),
    "exclude_vendors": ("What should I buy to run Llama 3.1 70B at home? Budget $20,000.",
                        "What should I buy to run Llama 3.1 70B at home? Budget $20,000. No NVIDIA."),
    "exclude_gpus": ("What should I buy to run Llama 3.1 70B for 20 users? Budget $200,000.",
                     "What should I buy to run Llama 3.1 70B for 20 users? Budget $200,000. We can't get H100s."),
    "device_kind": ("What's the biggest model that fits in 6 GB?",
                    "What's the biggest model that fits on a Snapdragon 8 Gen 3 phone with 12 GB?"),
    "resale_fraction": ("Rent or buy 8 H100 for 2 years at $2.49/GPU-hr, buying at $250k a server?",
                        "Rent or buy 8 H100 for 2 years at $2.49/GPU-hr, buying at $250k a server, resale 40% at the end?"),
    "rent_committed": ("Rent or buy 8 H100 for 2 years at 60% utilization, renting at $2.10/GPU-hr?",
                       "Rent or buy 8 H100 for 2 years at 60% utilization, on a reserved contract at $2.10/GPU-hr?"),
    "volume_is_output": ("Qwen2.5-7B on L4 at $0.8/GPU-hour for 200M tokens a day: how many GPUs and what per 1M tokens?",
                         "Qwen2.5-7B on L4 at $0.8/GPU-hour for 200M tokens a day (160M input, 40M output): how many GPUs "
                         "and what per 1M tokens?"),
    "quiet": ("Budget $3,000 for a home box: what GPU should I buy for Qwen2.5-32B?",
              "Budget $3,000 for a quiet home box: what GPU should I buy for Qwen2.5-32B?"),
    "short_chats": ("Qwen2.5-32B on one L40S: how many users at once?",
                    "Qwen2.5-32B on one L40S for mostly short chats: how many users at once?"),
    "long_documents": ("Qwen2.5-32B on one L40S: how many users at once?",
                       "Qwen2.5-32B on one L40S for document summarization: how many users at once?"),
    "team_size": ("How many A100s to serve a 7B chatbot?", "How many A100s to serve a 7B chatbot to a 40-person team?"),
    "only_vendors": ("要做 Qwen2.5-7B 全参微调，推荐买什么卡？", "要做 Qwen2.5-7B 全参微调，国产化要求，推荐买什么卡？"),
    "power_limit_w": ("What should I buy to run Llama 3.1 70B at home? Budget $10,000.",
                      "What should I buy to run Llama 3.1 70B at home? Budget $10,000, on a 15A 120V outlet."),
    "method": ("Does Llama 3.1 8B fit on one A100 80GB for fine-tuning?",
               "Does Llama 3.1 8B fit on one A100 80GB for QLoRA fine-tuning?"),
    "methods": ("LoRA of Llama 3.1 8B on one A100 80GB?", "LoRA vs QLoRA of Llama 3.1 8B on one A100 80GB?"),
    "model": ("How much memory does LoRA need on one A100 80GB?", "How much memory does LoRA of Qwen2.5-7B need on one A100 80GB?"),
    "checkpoint_format": ("Can I run Qwen2.5-72B on 2x A100 80GB?", "Can I run Qwen2.5-72B-Instruct-AWQ on 2x A100 80GB?"),
    "gpu": ("LoRA of Llama 3.1 8B on one GPU, does it fit?", "LoRA of Llama 3.1 8B on one H100, does it fit?"),
    "gpus": ("How long to train Llama 3.1 8B on 1B tokens with 8 H100?",
             "How long to train Llama 3.1 8B on 1B tokens with 8 H100 vs 8 A100?"),
    "num_gpus": ("Full fine-tune of Llama 3.1 8B on H100, does it fit?", "Full fine-tune of Llama 3.1 8B on 4 H100, does it fit?"),
    "gpus_per_node": ("How long to full fine-tune Llama 3.1 8B on 1B tokens with 16 H800 over 100GbE?",
                      "How long to full fine-tune Llama 3.1 8B on 1B tokens with 4 nodes x 4 H800 over 100GbE?"),
    "nodes": ("Full fine-tune of Qwen2.5-32B on 8 A100s, enough?",
              "Full fine-tune of Qwen2.5-32B on 2 servers with 8 A100s each, enough?"),
    "interconnect": ("How long to full fine-tune Llama 3.1 8B on 1B tokens with 16 H800?",
                     "How long to full fine-tune Llama 3.1 8B on 1B tokens with 16 H800 over 100GbE?"),
    "precision": ("Can I run Llama 3.1 8B on one RTX 4090?", "Can I run Llama 3.1 8B in int8 on one RTX 4090?"),
    "kv_dtype": ("Llama 3.1 70B inference on one H200 at 32k context?",
                 "Llama 3.1 70B inference on one H200 at 32k context with fp8 KV cache?"),
    "seq_len": ("LoRA of Llama 3.1 8B on one A100 80GB?", "LoRA of Llama 3.1 8B on one A100 80GB at seq 8192?"),
    "context": ("Can one H100 run Llama 3.1 8B?", "Can one H100 run Llama 3.1 8B at 32k context?"),
    "prompt_len": ("TTFT of Llama 3.1 8B on one H100?", "TTFT of Llama 3.1 8B on one H100 for an 8k prompt?"),
    "output_len": ("How fast is Llama 3.1 8B on one H100?", "How fast is Llama 3.1 8B on one H100 with 1024 output tokens?"),
    "loss": ("LoRA of Llama 3.1 8B on one RTX 4090 at seq 4096, micro batch 2: does it fit?",
             "LoRA of Llama 3.1 8B on one RTX 4090 at seq 4096, micro batch 2, with Liger fused cross entropy: does it fit?"),
    "micro_batch": ("LoRA of Llama 3.1 8B on one A100 80GB?", "LoRA of Llama 3.1 8B on one A100 80GB with micro batch 4?"),
    "global_batch": ("How long to train Llama 3.1 8B on 1B tokens with 8 H100?",
                     "How long to train Llama 3.1 8B on 1B tokens with 8 H100, global batch 64?"),
    "batch": ("Llama 3.1 8B tokens/s on one H100?", "Llama 3.1 8B tokens/s on one H100 at batch 32?"),
    "concurrent_users": ("Serving Llama 3.1 8B on one H100 with vLLM at 4k context: enough?",
                         "Serving Llama 3.1 8B on one H100 with vLLM at 4k context for 50 concurrent users: enough?"),
    "requests_per_s": ("Serving Llama 3.1 8B on one H100 with vLLM at 4k context: enough?",
                       "Serving Llama 3.1 8B on one H100 with vLLM at 4k context at 5 requests per second: enough?"),
    "engine": ("Can one H100 serve Llama 3.1 8B for 20 concurrent users?",
               "Can one H100 serve Llama 3.1 8B for 20 concurrent users with llama.cpp?"),
    "gpu_memory_utilization": ("vLLM with Llama 3.1 8B on one A100 80GB for 20 concurrent users?",
                               "vLLM with Llama 3.1 8B on one A100 80GB for 20 concurrent users, gpu_memory_utilization 0.5?"),
    "tokens": ("How long to train Llama 3.1 8B on 8 H100?", "How long to train Llama 3.1 8B on 10B tokens with 8 H100?"),
    "epochs": ("How long to train Llama 3.1 8B on 1B tokens with 8 H100?",
               "How long to train Llama 3.1 8B on 1B tokens for 3 epochs with 8 H100?"),
    "optimizer": ("Full fine-tune of Llama 3.1 8B on one H100?", "Full fine-tune of Llama 3.1 8B on one H100 with 8-bit adam?"),
    "zero": ("Full fine-tune of Llama 3.1 8B on 8 H100?", "Full fine-tune of Llama 3.1 8B on 8 H100 with ZeRO-2?"),
    "offload": ("Full fine-tune of Llama 3.1 8B on 8 H100?", "Full fine-tune of Llama 3.1 8B on 8 H100 with CPU offload?"),
    "recompute": ("LoRA of Llama 3.1 8B on one A100 80GB?",
                  "LoRA of Llama 3.1 8B on one A100 80GB without gradient checkpointing?"),
    "lora_rank": ("LoRA of Llama 3.1 8B on one A100 80GB?", "LoRA of Llama 3.1 8B on one A100 80GB with rank 64?"),
    "price_per_gpu_hour": ("Renting 8 A100 for 3 days, what is the total?", "Renting 8 A100 for 3 days at $1.5/hour, what is the total?"),
    "purchase_price": ("Rent or buy 8 H100 for a year?", "Rent or buy 8 H100 for a year, buying at $25k each?"),
    "purchase_price_per_server": ("Rent or buy 8 H100 for a year?", "Rent or buy 8 H100 for a year if a server costs $250k?"),
    "used": ("What is the price of an A100?", "What is the price of a used A100?"),
    "price_kind": ("How much is an H100?", "How much is it to rent an H100?"),
    "lora_targets": ("LoRA r=16 on Llama 3.1 8B, one A100 80GB: how much memory?",
                     "LoRA r=16 on Llama 3.1 8B targeting only q_proj and v_proj, one A100 80GB: how much memory?"),
    "reference_per_million": ("8x H20 at ¥60 an hour all in, 1500 tokens/s measured: cost per million tokens?",
                              "8x H20 at ¥60 an hour all in, 1500 tokens/s measured: cost per million tokens? The API "
                              "charges ¥16 per million tokens."),
    "peak_tflops": ("How long to pretrain a 7B model on 1T tokens with 128 Ascend 910B at 35% MFU?",
                    "How long to pretrain a 7B model on 1T tokens with 128 Ascend 910B at 35% MFU, taking 313 TFLOPS per card?"),
    "provider": ("How much to rent 8 H100s for a week?", "How much to rent 8 H100s for a week on AWS?"),
    "batch_items": ("How fast is Llama 3.1 8B on 8 H100s with 1000-token prompts and 100-token outputs?",
                    "How long to run inference over 10 million documents with Llama 3.1 8B on 8 H100s, 1000-token "
                    "prompts and 100-token outputs?"),
    "purchase": ("Which GPU is best to rent for running Llama 3.1 70B? My budget is $5000.",
                 "Which GPU should I buy to run Llama 3.1 70B? My budget is $5000."),
    "host_owned": ("Which GPU should I buy to run Llama 3.1 70B? My budget is $5000.",
                   "Which GPU should I buy to run Llama 3.1 70B? My budget is $5000, cards only (I already have a PC)."),
    "server": ("How much is an A100?", "How much is an 8-GPU A100 server?"),
    "utilization": ("Rent or buy 8 H100 for a year?", "Rent or buy 8 H100 for a year at 50% utilization?"),
    "period_hours": ("Renting 8 A100 at $1.5/hour, what is the total?", "Renting 8 A100 at $1.5/hour for 3 days, what is the total?"),
    "hours_per_day": ("Rent or buy 8 H100 for a year?", "Rent or buy 8 H100 for a year, 8 hours a day?"),
    "budget": ("Which GPU should I use to fine-tune Llama 3.1 70B?",
               "Which GPU should I use to fine-tune Llama 3.1 70B with a budget of $20k?"),
    "currency": ("How much is an H100?", "How much is an H100 in RMB?"),
    "deadline_hours": ("Which GPU should I use to fine-tune Llama 3.1 70B on 1B tokens?",
                       "Which GPU should I use to fine-tune Llama 3.1 70B on 1B tokens within 2 weeks?"),
    "largest_model": ("I have 8 A100s, can I fine-tune with them?", "I have 8 A100s, what is the biggest model I can fine-tune?"),
    "model_path": ("Can one RTX 4090 run Phi-4?", "Can one RTX 4090 run the model in ./tests/data/configs/my-finetune?"),
    "ram_gb": ("Can I run Qwen3-30B-A3B on one RTX 4090?", "Can I run Qwen3-30B-A3B on one RTX 4090 with 64GB of RAM?"),
    "full_model": ("Qwen2.5-72B 两张 A100 40G 能跑吗", "满血版 Qwen2.5-72B 两张 A100 40G 能跑吗"),
    "max_throughput": ("Llama 3.1 8B tokens/s on one H100 with vLLM?", "Llama 3.1 8B max throughput on one H100 with vLLM?"),
    "throughput_tokens_per_s": ("Cost per million tokens for Llama 3.1 8B on one H100?",
                                "Cost per million tokens for Llama 3.1 8B on one H100 at 5,000 tokens/s aggregate throughput?"),
    "per_token_cost": ("How fast is Llama 3.1 8B on one H100 at full load?",
                       "What does Llama 3.1 8B on one H100 cost per million tokens at full load?"),
    "electricity_per_kwh": ("Rent or buy 8 H100 for a year?", "Rent or buy 8 H100 for a year, electricity at $0.20/kWh?"),
    "daily_active_users": ("How many A100s to serve a 7B chatbot?",
                           "How many A100s to serve a 7B chatbot to 1000 daily active users?"),
    "mfu": ("How long to pretrain a 7B model on 100B tokens with 64 H100?",
            "How long to pretrain a 7B model on 100B tokens with 64 H100 at 45% MFU?"),
    "ttft_s": ("How many H100 to serve Llama 3.1 70B to 100 concurrent users?",
               "How many H100 to serve Llama 3.1 70B to 100 concurrent users with TTFT under 5 s?"),
    "itl_ms": ("How many H100 to serve Llama 3.1 70B to 100 concurrent users?",
               "How many H100 to serve Llama 3.1 70B to 100 concurrent users with ITL under 100 ms?"),
    "tokens_per_s_per_user": ("How many H100 to serve Llama 3.1 70B to 100 concurrent users?",
                              "How many H100 to serve Llama 3.1 70B to 100 concurrent users at 10 tokens/s each?"),
    "speedup": ("H100 at $2.49/hr or A100 at $1.29/hr for our training job: which is cheaper?",
                "H100 at $2.49/hr or A100 at $1.29/hr for our training job, where the H100 is 3x faster: which is cheaper?"),
    "tokens_per_day": ("Qwen2.5-14B on L40S, we measured 1,500 tok/s per card. What does a million tokens cost?",
                       "Qwen2.5-14B on L40S, we measured 1,500 tok/s per card. We generate 20 million tokens a day. "
                       "What does a million tokens cost?"),
    "peak_factor": ("Qwen2.5-14B on L40S, 1,500 tok/s per card measured, 200 million tokens a day: how many cards?",
                    "Qwen2.5-14B on L40S, 1,500 tok/s per card measured, 200 million tokens a day, peak is 3x the average: "
                    "how many cards?"),
    "measured_step_s": ("Llama 3.1 8B full fine-tune on 8x A100 80GB, global batch 64 x 4096, 1.2B tokens: how long?",
                        "Llama 3.1 8B full fine-tune on 8x A100 80GB, global batch 64 x 4096, we measured 25 s per step, "
                        "1.2B tokens: how long?"),
    "batch_output_tokens": ("offline batch job with Llama 3.1 8B on 1 H100: how fast does it generate?",
                            "offline batch job with Llama 3.1 8B on 1 H100: generate 5B tokens in total, how long?"),
    "usage_gpu_hours_per_month": ("buying an 8x RTX 5090 rig (~$35k all-in) instead of renting H100s at $2.20/GPU-hr: "
                                  "payback period?",
                                  "buying an 8x RTX 5090 rig (~$35k all-in) instead of renting H100s at $2.20/GPU-hr; we "
                                  "use roughly 200 H100-GPU-hours a month: payback period?"),
    "usage_gpu": ("buying an 8x RTX 5090 rig (~$35k all-in) instead of renting at $2.20/GPU-hr; we use roughly 200 "
                  "GPU-hours a month: payback period?",
                  "buying an 8x RTX 5090 rig (~$35k all-in) instead of renting at $2.20/GPU-hr; we use roughly 200 "
                  "H100-GPU-hours a month: payback period?"),
    "load_rate_stated": ("Qwen2.5-14B on L40S, 1,500 tok/s per card measured, 200 million tokens a day: how many cards?",
                         "Qwen2.5-14B on L40S, 1,500 tok/s per card measured, we need to serve 3,000 tok/s: how many cards?"),
    "throughput_scope": ("Qwen2.5-14B on 4x L40S, we measured 1,500 tok/s; 200 million tokens a day: how many cards?",
                         "Qwen2.5-14B on 4x L40S, we measured 1,500 tok/s per card; 200 million tokens a day: how many cards?"),
    "rent_per_month": ("We rent an 8x H100 node at $2.50 per GPU-hour on demand. We use it 10 hours a day: cost?",
                       "We rent an 8x H100 node at $2.50 per GPU-hour on demand, or $12,000 a month on a monthly plan. We use "
                       "it 10 hours a day: which is cheaper?"),
    "tensor_parallel": ("Llama 3.1 70B in bf16 on 8 H100s: memory per GPU?",
                        "Llama 3.1 70B in bf16 on 8 H100s with TP=4: memory per GPU?"),
    "hosting_per_month": ("Rent or buy an 8x H100 server for $280,000 against $2.49 per GPU-hour, used 24/7 for 18 months?", "Rent or buy an 8x H100 server for $280,000 against $2.49 per GPU-hour, used 24/7 for 18 months, with $3,000 a month for colocation?"),
    "power_kw": ("Rent or buy an 8x H100 server for $280,000 against $2.49 per GPU-hour, used 24/7 for 18 months, electricity $0.12/kWh?", "Rent or buy an 8x H100 server for $280,000 against $2.49 per GPU-hour, used 24/7 for 18 months, electricity $0.12/kWh; the server draws 10.2 kW?"),
    "pue": ("Rent or buy an 8x H100 server for $280,000 against $2.49 per GPU-hour, used 24/7 for 18 months, electricity $0.12/kWh?", "Rent or buy an 8x H100 server for $280,000 against $2.49 per GPU-hour, used 24/7 for 18 months, electricity $0.12/kWh at PUE 1.5?"),
    "depreciation_years": ("Rent or buy an 8x H100 server for $280,000 against $2.49 per GPU-hour, used 24/7 for 18 months?", "Rent or buy an 8x H100 server for $280,000 against $2.49 per GPU-hour, used 24/7 for 18 months, amortized over 3 years?"),
    "measured_tokens": ("Our last run of a 1B model took 10 days on 8x H100. How long for 300B tokens?",
                        "Our last run of a 1B model took 10 days on 8x H100 for 200B tokens. How long for 300B tokens?"),
    "reference_input_per_million": ("We run Qwen2.5-72B on 8x H20 at 2,500 output tok/s, input:output 3:1, ¥11/GPU-hour. "
                                    "Cheaper than an API at ¥12 per 1M output tokens?",
                                    "We run Qwen2.5-72B on 8x H20 at 2,500 output tok/s, input:output 3:1, ¥11/GPU-hour. "
                                    "Cheaper than an API at ¥4 per 1M input tokens and ¥12 per 1M output tokens?"),
    "input_output_ratio": ("We run Qwen2.5-72B on 8x H20 at 2,500 output tok/s, ¥11/GPU-hour. Cheaper than an API at ¥4 "
                           "per 1M input tokens and ¥12 per 1M output tokens?",
                           "We run Qwen2.5-72B on 8x H20 at 2,500 output tok/s, input:output 3:1, ¥11/GPU-hour. Cheaper "
                           "than an API at ¥4 per 1M input tokens and ¥12 per 1M output tokens?"),
    "measured_model": ("Our LoRA run took 6 hours on 4x A100 for 300M tokens on Llama 3.1 70B. How long for 1.2B tokens of "
                       "the same recipe on 8x H100?",
                       "Our LoRA run on Llama 3.1 8B took 6 hours on 4x A100 for 300M tokens. How long for 1.2B tokens of "
                       "the same recipe on Llama 3.1 70B on 8x H100?"),
    "measured_gpu": ("Our LoRA run on Llama 3.1 8B took 6 hours on 8 H100s for 300M tokens. How long for 1.2B tokens on "
                     "8 H100s?",
                     "Our LoRA run on Llama 3.1 8B took 6 hours on 8 A100s for 300M tokens. How long for 1.2B tokens on "
                     "8 H100s?"),
    "measured_num_gpus": ("Our LoRA run on Llama 3.1 8B took 6 hours on 8 H100s for 300M tokens. How long for 1.2B tokens "
                          "on 8 H100s?",
                          "Our LoRA run on Llama 3.1 8B took 6 hours on 4 H100s for 300M tokens. How long for 1.2B tokens "
                          "on 8 H100s?"),
    "measured_concurrency": ("We measured 900 tokens/s on one L40S with Qwen2.5-14B. We need 150 concurrent users: how "
                             "many L40S?",
                             "We measured 900 tokens/s at 24 concurrent on one L40S with Qwen2.5-14B. We need 150 "
                             "concurrent users: how many L40S?"),
    "api_spend_per_month": ("Self-host Qwen2.5-32B on H100s at $2.2/hr for 3B tokens a month: cost per million tokens?",
                            "We spend $12k/month on the API for 3B tokens a month. Self-host Qwen2.5-32B on H100s at "
                            "$2.2/hr: cost per million tokens?"),
    "measured_rate_per_gpu": ("How many H100s for Llama 3.1 70B at 10k tok/s total output?",
                              "A blog shows Llama 3.1 8B doing 2,500 tok/s on one H100. How many H100s for Llama 3.1 70B "
                              "at 10k tok/s total output?"),
    "checkpoint_stall": ("Full fine-tune Llama 3.1 8B on 10B tokens on 16 H100s: how long?",
                         "Full fine-tune Llama 3.1 8B on 10B tokens on 16 H100s, checkpoint every 2h takes 10 min: how "
                         "long?"),
    "time_lost": ("Full fine-tune Llama 3.1 8B on 10B tokens on 16 H100s: how long?",
                  "Full fine-tune Llama 3.1 8B on 10B tokens on 16 H100s, 5% of time lost to failures: how long?"),
    "expert_parallel": ("Pretrain DeepSeek-V2-Lite on 64 H800, ZeRO-1, seq 4096: memory per GPU?",
                        "Pretrain DeepSeek-V2-Lite on 64 H800, ZeRO-1, EP8, seq 4096: memory per GPU?"),
    "gpu_purchase_prices": ("预算 5 万，想跑 Qwen2.5-32B 给 5 个同事用，3090、4090、5090 推荐怎么配？",
                            "预算 5 万，想跑 Qwen2.5-32B 给 5 个同事用，3090 6000 一张，4090 1.9 万，5090 2.3 万，推荐怎么配？"),
    "used_gpus": ("预算 5 万，想跑 Qwen2.5-32B 给 5 个同事用，3090 6000 一张，4090 1.9 万，5090 2.3 万，推荐怎么配？",
                  "预算 5 万，想跑 Qwen2.5-32B 给 5 个同事用，二手 3090 6000 一张，4090 1.9 万，5090 2.3 万，推荐怎么配？"),
    "price_ratios": ("LoRA of Llama 3.1 8B on 1B tokens: which is cheaper to rent, H100 or A100?",
                     "LoRA of Llama 3.1 8B on 1B tokens: which is cheaper to rent, H100 or A100? The H100 rents for about "
                     "twice the A100's price."),
    "gpu_rental_prices": ("Cheapest GPU to rent for QLoRA on Qwen2.5-14B, 60M tokens: L4, L40S or H100?",
                          "Cheapest GPU to rent for QLoRA on Qwen2.5-14B, 60M tokens: L4 $0.80, L40S $1.90 or H100 "
                          "$4.50?"),
    "gpu_counts": ("We measured on our own box: Qwen2.5-32B-Instruct bf16, 2x A100 80GB TP2, vLLM, 1 user -> 24 tok/s "
                   "decode. Boss wants single-user tok/s if we move to H100 SXM, and to H200.",
                   "We measured on our own box: Qwen2.5-32B-Instruct bf16, 2x A100 80GB TP2, vLLM, 1 user -> 24 tok/s "
                   "decode. Boss wants single-user tok/s if we move to 2x H100 SXM (TP2), and to a single H200."),
    "max_num_seqs": ("Serve Llama 3.1 8B on one H100 to 300 concurrent users with 2k prompts: what latency?",
                     "Serve Llama 3.1 8B on one H100 to 300 concurrent users with 2k prompts, max_num_seqs 64: what latency?"),
    "node_overhead_kw": ("4 nodes x 8 H100, 700W per GPU, PUE 1.3, $0.12/kWh: annual power bill?",
                         "4 nodes x 8 H100, 700W per GPU, node overhead 2.5 kW, PUE 1.3, $0.12/kWh: annual power bill?"),
    "idle_power_share": ("4 nodes x 8 H100, 700W per GPU, node overhead 2.5 kW, PUE 1.3, $0.12/kWh, 70% utilization: "
                         "annual power bill?",
                         "4 nodes x 8 H100, 700W per GPU, node overhead 2.5 kW, PUE 1.3, $0.12/kWh, 70% utilization (idle "
                         "GPU draw ~30% of TDP): annual power bill?"),
    "rack_units": ("What should we buy to serve Llama 3.1 70B FP8 to 100 concurrent users?",
                   "We only have 4U of rack space: what should we buy to serve Llama 3.1 70B FP8 to 100 concurrent users?"),
    "claimed_tokens_per_s": ("A reddit post says Llama 3.1 8B in bf16 runs fast on one RTX 4090 - realistic?",
                             "A reddit post says Llama 3.1 8B in bf16 does 150 tok/s on one RTX 4090 - realistic?"),
    "host_price_per_server": ("Qwen2.5-14B 客服，50 并发，平均上下文 2k。报价：4090D ¥1.4 万/张，H20 ¥11 万/张。怎么配？",
                              "Qwen2.5-14B 客服，50 并发，平均上下文 2k。报价：4090D ¥1.4 万/张，H20 ¥11 万/张，服务器准系统另算 "
                              "¥8 万。怎么配？"),
    "sample_len": ("QLoRA llama-3.1-8B on one H100, micro bs 2, grad accum 16: 75M tokens, 3 epochs, packing off. steps?",
                   "QLoRA llama-3.1-8B on one H100, micro bs 2, grad accum 16: 50k samples, avg 1,500 tokens, 3 epochs, "
                   "packing off. steps?"),
    "packing": ("QLoRA llama-3.1-8B on one H100, seq 4096, micro bs 2, grad accum 16: 50k samples, avg 1,500 tokens, "
                "3 epochs. steps?",
                "QLoRA llama-3.1-8B on one H100, seq 4096, micro bs 2, grad accum 16: 50k samples, avg 1,500 tokens, "
                "3 epochs, packing off. steps?"),
    "break_even": ("What does renting 8 H100s cost?", "What does renting 8 H100s cost, and when would buying them break even?"),
    "samples": ("QLoRA fine-tune Mistral 7B on one RTX 3090: how much VRAM, and how long for 1 epoch?",
                "QLoRA fine-tune Mistral 7B on one RTX 3090: how much VRAM, and how long for 1 epoch on our 50k samples?"),
    "gpu_power_w": ("32x A100 80GB for 746 hours, power $0.10/kWh: electricity cost if we own the GPUs?",
                    "32x A100 80GB for 746 hours, power 400 W/GPU, $0.10/kWh: electricity cost if we own the GPUs?"),
    "server_overhead": ("32x A100 80GB for 746 hours, power 400 W/GPU, $0.10/kWh: electricity cost if we own the GPUs?",
                        "32x A100 80GB for 746 hours, power 400 W/GPU + 30% server overhead, $0.10/kWh: electricity cost "
                        "if we own the GPUs?"),
    "cache_hit_rate": ("We use ~900M input and 300M output tokens a month via an API at input $1.25/M, cached input "
                       "$0.125/M, output $10/M. Would 2x H100 at $2.50/GPU-hr self-hosting Llama 3.3 70B FP8 be cheaper?",
                       "We use ~900M input (40% cache hits) and 300M output tokens a month via an API at input $1.25/M, "
                       "cached input $0.125/M, output $10/M. Would 2x H100 at $2.50/GPU-hr self-hosting Llama 3.3 70B FP8 "
                       "be cheaper?"),
    "reference_cached_input_per_million": (
        "We use ~900M input (40% cache hits) and 300M output tokens a month via an API at input $1.25/M, output $10/M. "
        "Would 2x H100 at $2.50/GPU-hr self-hosting Llama 3.3 70B FP8 be cheaper?",
        "We use ~900M input (40% cache hits) and 300M output tokens a month via an API at input $1.25/M, cached input "
        "$0.125/M, output $10/M. Would 2x H100 at $2.50/GPU-hr self-hosting Llama 3.3 70B FP8 be cheaper?"),
    "load_multiplier": ("We serve Llama 3.1 8B on 1x L40S to 30 concurrent users. Is that enough?",
                        "We serve Llama 3.1 8B on 1x L40S to 30 concurrent users; users will double next month. Is that "
                        "enough?"),
    "api_model": ("We spend $18k/month on the API. Would self-hosting Llama 3.3 70B on H100s at $2.50/hr be cheaper?",
                  "We spend $18k/month on GPT-4o. Would self-hosting Llama 3.3 70B on H100s at $2.50/hr be cheaper?"),
    "scale_run": ("We want to continue-pretrain Llama 3.1 405B on 100B tokens. How many GPU hours, and cost at "
                  "$2.50/GPU-hr?",
                  "Meta says Llama 3.1 405B took 30.84M H100 GPU hours. We want to continue-pretrain 405B on 100B tokens. "
                  "Using their number, how many GPU hours, and cost at $2.50/GPU-hr?"),
    "scale_run_tokens": ("Meta says Llama 3.1 405B took 30.84M H100 GPU hours. We want to continue-pretrain 405B on 100B "
                         "tokens. Using their number, how many GPU hours, and cost at $2.50/GPU-hr?",
                         "Meta says Llama 3.1 405B took 30.84M H100 GPU hours for ~15T tokens. We want to continue-pretrain "
                         "405B on 100B tokens. Using their number, how many GPU hours, and cost at $2.50/GPU-hr?"),
}


def _calls(answer) -> list[tuple[str, dict]]:
    return [(c.name, c.args) for c in answer.tool_calls]


def test_every_request_field_has_a_question_that_states_it():
    fields = set(Request.model_fields) - set(META_FIELDS)
    assert fields == set(PAIRS), f"uncovered: {sorted(fields - set(PAIRS))}; unknown: {sorted(set(PAIRS) - fields)}"


@pytest.mark.parametrize("field", sorted(PAIRS))
def test_stating_a_field_changes_the_tool_call(field):
    without, with_it = (ask(q) for q in PAIRS[field])
    assert field in with_it.request["stated"], f"{field} not read from: {PAIRS[field][1]!r}"
    assert field not in without.request["stated"]
    assert _calls(with_it) != _calls(without), f"stating {field} changed no tool call"
    assert with_it.status == "answered" and not any(i.startswith(field + "=") for i in with_it.ignored)
